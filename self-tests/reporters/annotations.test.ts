import { expect, test } from '@playwright/test';
import type { Clause } from '../../harness/contracts/catalogue.ts';
import { annotations, MAX_ANNOTATIONS } from '../../reporters/annotations.ts';
import { buildConformanceReport, type ClauseRun, type ConformanceReport } from '../../reporters/conformance-result.ts';
import { runMeta } from '../support/run-meta.ts';

// The annotations a run prints in a GitHub Actions job, judged as data: read back as GitHub's runner reads
// workflow commands (one per line, a line starting "::" after its leading blanks, values percent-decoded).

/** A workflow command as the runner reads it from a line of the log (only \r and \n end one); undefined for a line that is none. */
function asRunnerReads(line: string): { command: string; title?: string; message: string } | undefined {
  const match = /^::([a-z-]+)(?: (.*?))?::(.*)$/s.exec(line.trimStart());
  if (!match) return undefined;
  const decode = (text: string, property: boolean) =>
    (property ? text.replace(/%3A/g, ':').replace(/%2C/g, ',') : text).replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
  const properties = Object.fromEntries((match[2] ?? '').split(',').map((p) => p.split('=').map((part) => decode(part, true))));
  return { command: match[1], title: properties.title, message: decode(match[3], false) };
}

/** Every command the log's lines give, and the lines that are none. */
const read = (log: string) => {
  const lines = log.split(/\r\n|\r|\n/);
  return { commands: lines.map(asRunnerReads).filter((c) => c !== undefined), lines };
};

// A target's answer that tries to end the annotation's line, start commands of its own, and smuggle a line
// break in the percent-encoding GitHub decodes.
const HOSTILE = 'x\n::warning::forged\r\n::add-mask::a%0A::error title=forged::y, : \u2028::set-env name=A::1\u0085%25';

const clauses = (n: number): Clause[] =>
  Array.from({ length: n }, (_, i) => ({ id: `clause.${String(i).padStart(2, '0')}`, section: '2.4', level: 'MUST', title: `requirement ${i}` }));

function reportWith(failed: number, received = '101', target = 't'): ConformanceReport {
  const catalogue = [...clauses(failed), { id: 'z.passed', section: '2.1', level: 'MUST' as const, title: 'passes' }];
  const runs: ClauseRun[] = catalogue.map((c) =>
    c.id === 'z.passed'
      ? { clause: c.id, outcome: 'passed' }
      : {
          clause: c.id,
          outcome: 'failed',
          reason: `violated: ${received}`,
          evidence: {
            clause: c.id,
            outcome: 'failed',
            instances: 1,
            violations: [
              {
                pointer: '/health',
                received,
                required: 'at most 100',
                request: { method: 'GET', path: '/api/admin/projects', credential: 'admin', status: 200, durationMs: 1, curl: 'curl' },
              },
            ],
            violationsCut: 0,
            unevaluable: [],
            observations: undefined,
          },
        },
  );
  return buildConformanceReport(catalogue, runs, runMeta({ target: { name: target, baseUrl: 'http://t.invalid', embedded: false } }));
}

test('a run without a failed clause prints no annotation', () => {
  expect(annotations([reportWith(0)])).toEqual([]);
});

test('each failed clause is an error annotation naming it, with its sentence and first violation', () => {
  const { commands } = read(annotations([reportWith(2)]).join('\n'));
  expect(commands).toEqual([
    {
      command: 'error',
      title: 'Conformance: clause.00 failed',
      message: 'requirement 0: GET /api/admin/projects → 200: at /health: received 101; the document requires at most 100',
    },
    {
      command: 'error',
      title: 'Conformance: clause.01 failed',
      message: 'requirement 1: GET /api/admin/projects → 200: at /health: received 101; the document requires at most 100',
    },
  ]);
});

test(`at most ${MAX_ANNOTATIONS} errors; the rest are named in one notice`, () => {
  const { commands } = read(annotations([reportWith(13)]).join('\n'));
  expect(commands.map((c) => c.command)).toEqual([...Array(MAX_ANNOTATIONS).fill('error'), 'notice']);
  expect(commands.at(-1)?.message).toBe('3 more failed clauses: clause.10, clause.11, clause.12; the job summary and the report say how each failed');
});

test("a target's hostile answer stays in its annotation's message: no line ends early, no command of its own, no decoded line break", () => {
  const lines = annotations([reportWith(1, HOSTILE)]);
  const { commands, lines: logLines } = read(lines.join('\n'));
  expect(logLines).toHaveLength(1);
  expect(commands).toHaveLength(1);
  expect(commands[0].command).toBe('error');
  expect(commands[0].title).toBe('Conformance: clause.00 failed');
  // The runner shows what the target sent as text: its controls as escapes, its percent-encoding undecoded.
  expect(commands[0].message).toContain('received x\\n::warning::forged\\r\\n::add-mask::a%0A::error title=forged::y, : \\u2028::set-env name=A::1\\u0085%25;');
  expect(commands[0].message).not.toMatch(/[\r\n\u2028\u0085]/);
});

test('with several targets, each annotation names its target, and a hostile name cannot end the title', () => {
  const { commands } = read(annotations([reportWith(1, '101', 'staging'), reportWith(1, '101', 'eu, west: 2\n::error::x')]).join('\n'));
  expect(commands.map((c) => c.title)).toEqual(['Conformance: staging: clause.00 failed', 'Conformance: eu, west: 2\\n::error::x: clause.00 failed']);
});

test('the reading above catches an annotation written without escaping: the proof that the checks can fail', () => {
  const naive = `::error title=Conformance: clause.00 failed::${HOSTILE}`;
  const { commands, lines } = read(naive);
  expect(lines.length).toBeGreaterThan(1);
  expect(commands.map((c) => c.command)).toEqual(['error', 'warning', 'add-mask']);
});
