import type { KeyObject } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { check } from '../harness/files/checked.ts';
import { documentPath } from '../harness/contracts/document.ts';
import { openEnvelope, type Envelope } from '../harness/evidence/dsse.ts';
import {
  configurationDescriptors,
  IN_TOTO_PAYLOAD_TYPE,
  subjectAnnotations,
  TEST_RESULT_TYPE,
  testResultOf,
  type ResourceDescriptor,
  type Statement,
  type TestResult,
} from '../reporters/attestation.ts';
import { suiteConfiguration } from '../reporters/attestation-file.ts';
import type { ConformanceReport } from '../reporters/conformance-result.ts';
import { headline } from '../reporters/sections.ts';

// A signed run's attestation checked against a bundle: signed by the given key (DSSE), about this bundle
// (its subject's SHA-256), and saying what the bundle's own report says (the result and every clause list),
// judged by what the bundle names (its document and configuration) and, for a bundle this suite made, by this
// suite's own contracts.

const SCHEMA = new URL('../reporters/attestation.schema.json', pathToFileURL(__filename));
const ENVELOPE = new URL(`${SCHEMA.href}#/$defs/envelope`);
const STATEMENT = new URL(`${SCHEMA.href}#/$defs/statement`);

/** What an attestation is held to: the bundle's report, its configuration digest and its subject's digest. */
export interface AttestedBundle {
  stated: ConformanceReport;
  /** The SHA-256 of the run's configuration facts, as the bundle's exchanges name it. */
  configuration?: string;
  subject: { sha256: string };
  /** Only a bundle this suite made is held to this suite's contracts; another's, judged anyway, to its own document. */
  madeHere: boolean;
}

/** A statement the key signed, or why a line holds none. */
function statementOf(line: string, key: KeyObject): { statement: Statement } | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { problem: 'it is not JSON' };
  }
  const envelope = check<Envelope>(ENVELOPE, parsed);
  if (!envelope.ok) return { problem: `it is no DSSE envelope: ${envelope.errors.join('; ')}` };
  const opened = openEnvelope(envelope.value, key);
  if ('problem' in opened) return opened;
  if (envelope.value.payloadType !== IN_TOTO_PAYLOAD_TYPE)
    return { problem: `its payload type is ${JSON.stringify(envelope.value.payloadType)}, not ${IN_TOTO_PAYLOAD_TYPE}` };
  try {
    parsed = JSON.parse(opened.body.toString('utf8'));
  } catch {
    return { problem: 'its statement is not JSON' };
  }
  const statement = check<Statement>(STATEMENT, parsed);
  if (!statement.ok) return { problem: `its statement is no in-toto Statement v1: ${statement.errors.join('; ')}` };
  if (statement.value.predicateType !== TEST_RESULT_TYPE)
    return { problem: `its predicate is ${JSON.stringify(statement.value.predicateType)}, not a test result (${TEST_RESULT_TYPE})` };
  return { statement: statement.value };
}

/** Where one of the statement's clause lists and the report's differ, by clause id. */
function listDifference(name: keyof Omit<TestResult, 'result'>, said: string[] | undefined, stands: string[]): string[] {
  const extra = (said ?? []).filter((id) => !stands.includes(id));
  const lacking = stands.filter((id) => !(said ?? []).includes(id));
  if (extra.length === 0 && lacking.length === 0) return [];
  const parts = [...(extra.length > 0 ? [`names ${extra.join(', ')}, which the bundle's report does not`] : [])];
  if (lacking.length > 0) parts.push(`leaves out ${lacking.join(', ')}, which the bundle's report gives`);
  return [`${name} ${parts.join(', and ')}`];
}

/** Where the statement's configuration is not what the bundle was judged by, descriptor by descriptor. */
function configurationDifferences(said: ResourceDescriptor[], expected: ResourceDescriptor[], madeHere: boolean): string[] {
  const differences = expected.flatMap((e) => {
    const found = said.find((d) => d.name === e.name);
    if (!found) return [`configuration ${e.name}: missing`];
    if (found.digest?.sha256 !== e.digest.sha256)
      return [`configuration ${e.name}: it says SHA-256 ${found.digest?.sha256}, the bundle's is ${e.digest.sha256}`];
    if (e.annotations && !isDeepStrictEqual(found.annotations, e.annotations))
      return [`configuration ${e.name}: it says ${JSON.stringify(found.annotations)}, the bundle's report ${JSON.stringify(e.annotations)}`];
    return [];
  });
  const unknown = madeHere ? said.filter((d) => !expected.some((e) => e.name === d.name)) : [];
  return [...differences, ...unknown.map((d) => `configuration ${d.name}: named by the attestation, judged by nothing of this suite`)];
}

/** Every way a statement about this bundle does not say what the bundle's report says. */
function statementDifferences(statement: Statement, bundle: AttestedBundle): string[] {
  const { predicate } = statement;
  const expected = testResultOf(bundle.stated);
  if (!expected) return [`it says ${predicate.result}, and the bundle's report has no verdict (${headline(bundle.stated)}), of which none is made`];
  const configuration = { sha256: bundle.configuration ?? 'none', claim: bundle.stated.claim.profiles };
  const differences = [
    ...(predicate.result === expected.result ? [] : [`it says ${predicate.result}, the bundle's report gives ${expected.result}`]),
    ...listDifference('passedTests', predicate.passedTests, expected.passedTests),
    ...listDifference('warnedTests', predicate.warnedTests, expected.warnedTests),
    ...listDifference('failedTests', predicate.failedTests, expected.failedTests),
    ...configurationDifferences(
      predicate.configuration,
      // Another suite's bundle, judged anyway, is held to the document its report names, not to this suite's contracts.
      bundle.madeHere
        ? suiteConfiguration(configuration)
        : configurationDescriptors([{ name: documentPath(), sha256: bundle.stated.document.sha256 }], configuration),
      bundle.madeHere,
    ),
  ];
  const said = statement.subject.find((s) => s.digest?.sha256 === bundle.subject.sha256)?.annotations;
  const stands = subjectAnnotations(bundle.stated);
  if (!isDeepStrictEqual(said, stands)) differences.push(`its subject says ${JSON.stringify(said)}, the bundle's report ${JSON.stringify(stands)}`);
  return differences;
}

/**
 * The differences between an attestation file (an in-toto bundle: one DSSE envelope a line) and a bundle:
 * none when a statement the key signed is about this bundle and says what its report says. Lines this suite
 * cannot read, or that the key did not sign, are ignored, as in-toto asks, and named only when none is left.
 */
export function attestationDifferences(text: string, key: KeyObject, bundle: AttestedBundle): { differences: string[]; result?: string } {
  const lines = text
    .split('\n')
    .map((line, i) => ({ line, number: i + 1 }))
    .filter(({ line }) => line.trim() !== '');
  const read = lines.map(({ line, number }) => ({ number, ...statementOf(line, key) }));
  const signed = read.flatMap((r) => ('statement' in r ? [r.statement] : []));
  if (signed.length === 0) {
    const problems = read.map((r) => `line ${r.number}: ${'problem' in r ? r.problem : ''}`);
    return { differences: [lines.length === 0 ? 'it holds no envelope' : problems.slice(0, 3).join('; ')] };
  }
  const about = signed.filter((s) => s.subject.some((d) => d.digest?.sha256 === bundle.subject.sha256));
  if (about.length === 0) {
    const named = [...new Set(signed.flatMap((s) => s.subject.map((d) => d.digest?.sha256 ?? 'none')))].join(', ');
    return {
      differences: [
        `it is about SHA-256 ${named}, the bundle's is ${bundle.subject.sha256}: the bundle was changed after it was signed, or the attestation is another bundle's`,
      ],
    };
  }
  const differences = [...new Set(about.flatMap((s) => statementDifferences(s, bundle)))];
  return { differences, result: differences.length === 0 ? about[0].predicate.result : undefined };
}
