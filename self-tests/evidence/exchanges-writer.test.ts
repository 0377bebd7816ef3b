import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { bundleRecording, readBundleRecording } from '../../harness/evidence/bundle-recording.ts';
import { exchangesFile } from '../../harness/evidence/exchanges-writer.ts';
import { createSecrets } from '../../harness/secrets/redact.ts';
import type { RunFacts } from '../../harness/judging/verdicts.ts';
import { REFERENCE_INPUT, recordInProcess } from '../support/in-process.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// A small recording is put together in the runner's process, a large one on a thread: the same code, so the
// same bytes, and the digest is the bytes' own in both. A body is written once, however many answers it is.

const FACTS: RunFacts = {
  target: { name: 'reference', baseUrl: 'http://reference.invalid', embedded: false },
  startedAt: '',
  requests: { count: 0, methods: ['GET'] },
  deviations: [],
};

const bundle = bundleRecording(
  recordInProcess(undefined, REFERENCE_INPUT),
  { ...REFERENCE_INPUT, baseUrl: FACTS.target.baseUrl },
  createSecrets(REFERENCE_INPUT),
  FACTS,
);

/** The bundle with one body grown past what is written in process: 2 MiB of padding in a JSON string. */
function grown(): typeof bundle {
  const padding = 'x'.repeat(2 << 20);
  return { ...bundle, exchanges: bundle.exchanges.map((e, i) => (i === 0 ? { ...e, bodyText: JSON.stringify({ padding }) } : e)) };
}

test('the exchanges are put together alike in process and on a thread, each with the digest of its bytes', async () => {
  for (const [name, recording] of [
    ['small', bundle],
    ['large', grown()],
  ] as const) {
    const { bytes, digest } = await exchangesFile(recording);
    expect(digest, name).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(readBundleRecording(bytes), name).toEqual(JSON.parse(JSON.stringify(recording)));
  }
});

test("a body that repeats an earlier answer's is written once and read back in place; a reference to no earlier body is refused", async () => {
  const lists = bundle.exchanges.flatMap((e, i) => (e.request.path.startsWith('/api/admin/projects') && e.request.credential === 'admin' ? [i] : []));
  expect(lists).toHaveLength(3);
  // A target that ignores `archived`: the same list three times, as large as a thread puts together.
  const list = JSON.stringify({ version: 1, projects: [], padding: 'x'.repeat(2 << 20) });
  const repeated = { ...bundle, exchanges: bundle.exchanges.map((e, i) => (lists.includes(i) ? { ...e, bodyText: list } : e)) };
  const text = (await exchangesFile(repeated)).bytes.toString('utf8');
  expect(text.split('x'.repeat(2 << 20)).length - 1).toBe(1);
  expect(text.split(`"bodySameAs":${lists[0]}}`).length - 1).toBe(2);
  expect(readBundleRecording(Buffer.from(text))).toEqual(JSON.parse(JSON.stringify(repeated)));
  const forward = text.replace(`"bodySameAs":${lists[0]}}`, `"bodySameAs":${lists[2]}}`);
  expect(() => readBundleRecording(Buffer.from(forward))).toThrow(
    `exchange ${lists[1]} of exchanges.json in the bundle takes its body from exchange ${lists[2]}, which is not an earlier exchange with a body of its own`,
  );
});

test('the thread runs a module file of the suite, in plain Node with no TypeScript loader, as a clone installed without tsx runs it', () => {
  const job = { head: '{"exchanges":[\n', exchanges: ['{"n":0}', '{"n":1}'], bodyOf: [0, 0], bodies: ['{"a":1}'] };
  const thread = path.join(PROJECT_ROOT, 'harness', 'evidence', 'exchanges-thread.js');
  const script = `new (require('node:worker_threads').Worker)(${JSON.stringify(thread)}, { workerData: ${JSON.stringify(job)} }).on('message', ({ bytes, digest }) => process.stdout.write(JSON.stringify({ text: Buffer.from(bytes).toString(), digest })));`;
  const { NODE_OPTIONS: _, ...env } = process.env;
  const run = spawnSync(process.execPath, ['-e', script], { env, encoding: 'utf8', timeout: 30_000 });
  expect(run.stderr).toBe('');
  const { text, digest } = JSON.parse(run.stdout) as { text: string; digest: string };
  expect(digest).toBe(createHash('sha256').update(text).digest('hex'));
  expect(text).toBe('{"exchanges":[\n{"n":0,"bodyText":"{\\"a\\":1}"},\n{"n":1,"bodySameAs":0}\n]}\n');
});
