import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { bundleRecording } from '../../harness/bundle-recording.ts';
import { writeExchanges } from '../../harness/exchanges-writer.ts';
import { createSecrets } from '../../harness/redact.ts';
import type { RunFacts } from '../../harness/verdicts.ts';
import { REFERENCE_INPUT, recordInProcess } from '../support/in-process.ts';

// A small recording is written in the runner's process, a large one on a thread: the same code, so the
// same bytes, and the digest is the file's own in both.

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

test('the exchanges are written alike in process and on a thread, each with the digest of its bytes', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-exchanges-'));
  try {
    for (const [name, recording] of [
      ['small', bundle],
      ['large', grown()],
    ] as const) {
      const file = path.join(dir, `${name}.json`);
      const digest = await writeExchanges(file, recording);
      const bytes = readFileSync(file);
      expect(digest, name).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(JSON.parse(bytes.toString()), name).toEqual(JSON.parse(JSON.stringify(recording)));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
