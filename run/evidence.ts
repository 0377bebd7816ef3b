import type { TargetConfig } from '../harness/config/config.ts';
import { discardEvidence } from '../harness/evidence/evidence-stage.ts';
import { visible } from '../harness/files/visible.ts';
import { noVerdictToSign, writeAttestation } from '../reporters/attestation-file.ts';
import type { ConformanceReport } from '../reporters/conformance-result.ts';
import { writeEvidenceBundle } from '../reporters/evidence-bundle.ts';

// A target's evidence bundle and its signed attestation, written once its report is: the lines that say where
// they went, or what is missing (which a fleet's terminal shows alone).

export interface EvidenceLine {
  line: string;
  missing: boolean;
  /** The bundle's path, when one was written. */
  bundle?: string;
}

const wentTo = (line: string, bundle?: string): EvidenceLine => ({ line, missing: false, ...(bundle && { bundle }) });
const none = (line: string): EvidenceLine => ({ line, missing: true });

const messageOf = (error: unknown) => {
  const { code, message } = error as NodeJS.ErrnoException;
  return visible(code ?? message ?? String(error));
};

/** Signs the bundle's attestation with the configured key; the line that says where it went, or why there is none. */
function attestationLine(report: ConformanceReport, bundle: string, config: TargetConfig, configuration: string | undefined): EvidenceLine {
  const { key, kind } = config.signing!;
  if (configuration === undefined) return none('  attestation: none, the run judged nothing');
  try {
    const signed = writeAttestation(report, bundle, { key, configuration, url: config.runUrl });
    return 'none' in signed
      ? none(`  attestation: none, ${signed.none}`)
      : wentTo(`  attestation: ${signed.written} (signed with an ${kind} key, keyid ${signed.keyid.slice(0, 16)})`);
  } catch (error) {
    // The bundle stands without its attestation; what the key is, or holds, is no part of the message.
    return none(`  attestation: none, it could not be written (${messageOf(error)})`);
  }
}

/**
 * The target's evidence bundle, for a run that ended (an interrupted one leaves none), and its signed attestation
 * when a key is given. `configuration` is the digest of the configuration the judge ran with; `reports`, the files
 * rendered beside the bundle, which it carries.
 */
export async function writeEvidence(
  report: ConformanceReport,
  config: TargetConfig,
  ended: boolean,
  today: string,
  configuration: string | undefined,
  reports: [string, string][],
): Promise<EvidenceLine[]> {
  // No verdict is the reason a run signs nothing, before whatever became of its bundle.
  const unsigned = (why: string) => (config.signing ? [none(`  attestation: none, ${noVerdictToSign(report) ?? why}`)] : []);
  if (!ended) {
    await discardEvidence(config.reportDir);
    return [none('  evidence: none, the run did not end'), ...unsigned('the run did not end')];
  }
  let bundle: Awaited<ReturnType<typeof writeEvidenceBundle>>;
  try {
    bundle = await writeEvidenceBundle(
      report,
      { reportDir: config.reportDir, evidenceDir: config.evidenceDir, replayOf: report.replay?.bundle, reports },
      today,
    );
  } catch (error) {
    // The verdict stands on the judged answers, which the reports hold; only their bundle is missing.
    await discardEvidence(config.reportDir);
    return [
      none(`  evidence: none, it could not be written (${visible(String((error as Error).message ?? error))})`),
      ...unsigned('there is no evidence bundle to sign'),
    ];
  }
  if (!bundle.written) return unsigned('there is no evidence bundle to sign');
  const line = bundle.tooLarge ? none(`  evidence: ${bundle.written}, but ${bundle.tooLarge}`) : wentTo(`  evidence: ${bundle.written}`, bundle.written);
  return [line, ...(config.signing ? [attestationLine(report, bundle.written, config, configuration)] : [])];
}
