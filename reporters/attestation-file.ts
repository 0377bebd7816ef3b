import { writeWhole } from '../harness/files/whole-file.ts';
import type { KeyObject } from 'node:crypto';
import { contractFiles } from '../harness/contracts/contracts.ts';
import { documentPath, specDocument } from '../harness/contracts/document.ts';
import { bundleSubject } from '../harness/evidence/attestation-file.ts';
import { keyIdOf, signEnvelope } from '../harness/evidence/dsse.ts';
import { attestationStatement, configurationDescriptors, IN_TOTO_PAYLOAD_TYPE, testResultOf, type ResourceDescriptor } from './attestation.ts';
import type { ConformanceReport } from './conformance-result.ts';
import { headline } from './sections.ts';

/** What a run was judged by, as this suite holds it: its contracts and document, and the run's configuration digest. */
export function suiteConfiguration(configuration: { sha256: string; claim: string[] }): ResourceDescriptor[] {
  const document = { name: documentPath(), sha256: specDocument().sha256 };
  return configurationDescriptors([...contractFiles(), document], configuration);
}

/** Why a run signs nothing, whatever became of its bundle: it has no verdict. Undefined for a pass or a fail. */
export const noVerdictToSign = (report: ConformanceReport): string | undefined =>
  testResultOf(report) ? undefined : `the run has no verdict (${headline(report)}); only a pass or a fail is signed`;

/**
 * Signs the statement of a run's bundle and writes it beside the bundle, in one line (a DSSE envelope) of an
 * in-toto bundle file. A run without a verdict signs nothing. Returns where it went, or why there is none.
 */
export function writeAttestation(
  report: ConformanceReport,
  bundle: string,
  run: { key: KeyObject; configuration: string; url?: string },
): { written: string; keyid: string } | { none: string } {
  const unsigned = noVerdictToSign(report);
  if (unsigned) return { none: unsigned };
  const subject = bundleSubject(bundle);
  const configuration = suiteConfiguration({ sha256: run.configuration, claim: report.claim.profiles });
  const statement = attestationStatement(report, subject, configuration, run.url)!;
  const envelope = signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from(JSON.stringify(statement)), run.key);
  writeWhole(subject.attestation, `${JSON.stringify(envelope)}\n`);
  return { written: subject.attestation, keyid: keyIdOf(run.key) };
}
