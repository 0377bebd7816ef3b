import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { leaveChromium, sharedChromium } from '../support/browser.ts';
import { HOSTILE_FIELD_NAMES, QUICK_TIMEOUTS, hostileText, withServer } from '../support/hostile-servers.ts';
import { referenceTargetEnv, runSuite } from '../support/run-suite.ts';
import { replaysOfRun } from '../../run/replays.ts';

// Text from a target never reaches the terminal raw, and every report shows it as text: a run against a
// target that writes terminal sequences, bidi overrides, HTML and Markdown into values, field names, error
// names and headers.

/** Characters a terminal, HTML or Markdown would obey rather than show (a line break aside). */
const HIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

/** Every string of a JSON value, keys included. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [...(Array.isArray(value) ? [] : [k]), ...strings(v)]);
}

test('terminal sequences, bidi overrides, HTML, Markdown and workflow commands from a target are shown escaped in the terminal, JUnit and every report', async () => {
  await withServer(hostileText(), async (server) => {
    const run = await runSuite(referenceTargetEnv(server.url, QUICK_TIMEOUTS));
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const read = (name: string) => readFileSync(path.join(run.reportDir, name), 'utf8');
    const hidden = (text: string) => [...text].filter((c) => HIDDEN.test(c) && c !== '\t').map((c) => `U+${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
    expect(hidden(run.stdout + run.stderr)).toEqual([]);
    expect(hidden(read('junit.xml'))).toEqual([]);
    expect(read('junit.xml')).not.toMatch(/&#(x1b|27|x9b|155);/i);
    expect(strings(run.report).flatMap(hidden)).toEqual([]);
    expect(hidden(read('summary.md'))).toEqual([]);
    expect(read('summary.md')).not.toMatch(/(?<!\\)<(img|script)/);
    // The escapes say what was there.
    expect(run.stdout).toContain('\\u001b[2J\\u001b]8;;http://evil.invalid\\u0007click');
    // No workflow command of the target's reaches a CI log: not in the run's lines, not in what Playwright prints of each test.
    const replayed = Object.values(replaysOfRun([{ name: 'hostile', report: run.report! }], undefined)['']).map((r) => `${r.message} ${r.deviation}`);
    for (const printed of [run.stdout, run.stderr, ...replayed]) expect(printed).not.toContain('##[');
    // The report keeps what was received, as data; what a log shows of it is escaped.
    expect(JSON.stringify(run.report)).toContain('##[error]x');
    expect(run.stdout).toContain('##\\u005berror]x');
    expect(replayed.join('\n')).toContain('##\\u005berror]x');
    expect(JSON.stringify(run.report)).toContain('\\\\u009b31m\\\\u202eevil');
    // Field names that every object inherits are observed like any other unknown field.
    const observed = run.report?.clauses.find((c) => c.id === 'projects.observe.unknown-fields')?.evidence?.observations as { fields: { field: string }[] };
    expect(observed.fields.map((f) => f.field)).toEqual(
      expect.arrayContaining(['/projects/*/__proto__', '/projects/*/constructor', '/projects/*/toString', '/projects/*/hasOwnProperty', '/projects/*/valueOf']),
    );
    expect(observed.fields).toHaveLength(HOSTILE_FIELD_NAMES.length);
    const browser = await sharedChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`file://${path.join(run.reportDir, 'index.html')}`);
      expect(
        await page.evaluate(() => ({
          elements: document.querySelectorAll('img, script, [onerror]').length,
          injected: (window as unknown as { injected?: number }).injected,
        })),
      ).toEqual({ elements: 0, injected: undefined });
      expect(await page.locator('body').innerText()).toContain('<script>window.injected=2</script>');
    } finally {
      await leaveChromium(browser);
    }
  });
});
