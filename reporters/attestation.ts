import type { ConformanceReport } from './conformance-result.ts';

// A signed run's claim as an in-toto Statement (in-toto/attestation, spec/v1/statement.md) with the test-result
// predicate (spec/predicates/test-result.md): a pure function of the report and of digests taken elsewhere.

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const TEST_RESULT_TYPE = 'https://in-toto.io/attestation/test-result/v0.1';
/** DSSE's payload type of an in-toto Statement (spec/v1/envelope.md). */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

/** A ResourceDescriptor (spec/v1/resource_descriptor.md), with the fields this suite writes. */
export interface ResourceDescriptor {
  name: string;
  digest: { sha256: string };
  annotations?: Record<string, unknown>;
}

/** The predicate's verdict and clause lists, each list in the catalogue's order. */
export interface TestResult {
  result: 'PASSED' | 'WARNED' | 'FAILED';
  passedTests: string[];
  warnedTests: string[];
  failedTests: string[];
}

export interface Statement {
  _type: typeof STATEMENT_TYPE;
  subject: ResourceDescriptor[];
  predicateType: typeof TEST_RESULT_TYPE;
  predicate: { result: TestResult['result']; configuration: ResourceDescriptor[]; url?: string } & Omit<TestResult, 'result'>;
}

/**
 * The test result of a report, or undefined when it has none to sign: only a pass or a fail is a verdict.
 * A clause passed is passed; a MUST clause failed is failed; a known deviation, a failure the user's
 * deviations file accepts, is warned, and a pass that rests on one is WARNED, never PASSED. Errored, not
 * exercised, not judged and observed clauses are in no list: none passed, and none failed.
 */
export function testResultOf(report: Pick<ConformanceReport, 'verdict' | 'clauses'>): TestResult | undefined {
  if (report.verdict !== 'pass' && report.verdict !== 'fail') return undefined;
  const withStatus = (status: string) => report.clauses.filter((c) => c.status === status && c.level === 'MUST').map((c) => c.id);
  const [passedTests, warnedTests, failedTests] = [withStatus('passed'), withStatus('known-deviation'), withStatus('failed')];
  const result = report.verdict === 'fail' ? 'FAILED' : warnedTests.length > 0 ? 'WARNED' : 'PASSED';
  return { result, passedTests, warnedTests, failedTests };
}

/** What a run was judged by: the contracts and the document (each file by its digest), and its configuration, secrets left out. */
export function configurationDescriptors(
  contracts: { name: string; sha256: string }[],
  configuration: { sha256: string; claim: string[] },
): ResourceDescriptor[] {
  return [
    ...contracts.map(({ name, sha256 }) => ({ name, digest: { sha256 } })),
    // The claim shapes what a pass means; it is no part of the configuration's digest, so it is said beside it.
    { name: 'configuration', digest: { sha256: configuration.sha256 }, annotations: { claim: configuration.claim } },
  ];
}

/** A target as a manifest, a report and an attestation name it. */
export const targetOf = ({ name, baseUrl, embedded }: { name: string; baseUrl: string; embedded: boolean }) => ({ name, baseUrl, embedded });

/**
 * What the subject's annotations say of the bundle: the target it judged, and, for a replay, the bundle whose
 * exchanges it judged again, which no target was asked for by this run.
 */
export const subjectAnnotations = (report: Pick<ConformanceReport, 'target' | 'replay'>) => ({
  target: targetOf(report.target),
  ...(report.replay ? { replayOf: report.replay.bundle } : {}),
});

/**
 * The statement a signed run makes of its bundle, or undefined when the run has no verdict to sign. The
 * subject says which target the bundle judged: a pass of the embedded reference target is no deployment's.
 */
export function attestationStatement(
  report: Pick<ConformanceReport, 'verdict' | 'clauses' | 'target' | 'replay'>,
  subject: { name: string; sha256: string },
  configuration: ResourceDescriptor[],
  url?: string,
): Statement | undefined {
  const tested = testResultOf(report);
  if (!tested) return undefined;
  const { result, ...lists } = tested;
  return {
    _type: STATEMENT_TYPE,
    subject: [{ name: subject.name, digest: { sha256: subject.sha256 }, annotations: subjectAnnotations(report) }],
    predicateType: TEST_RESULT_TYPE,
    predicate: { result, configuration, ...(url === undefined ? {} : { url }), ...lists },
  };
}
