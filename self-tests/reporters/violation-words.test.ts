import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { renderConformancePage } from '../../reporters/markdown.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { referenceTargetEnv, runSuite } from '../support/run-suite.ts';

// A violation reads the same in every report a run writes: one wording, "<request> → <status>: at <place>:
// received <value>; the document requires <requirement>", which each format only marks (code spans, escapes).
// The line is spelled out here from the evidence's fields, not by the renderer it checks.

const fault = FAULTS.find((f) => f.name === 'project-health-above-100')!;
const CLAUSE = 'projects.project.health-range';

let server: Awaited<ReturnType<typeof startReferenceServer>>;
test.beforeAll(async () => (server = await startReferenceServer(0, [fault])));
test.afterAll(async () => new Promise<void>((resolve) => server.server.close(() => resolve())));

/** Markdown as read: code spans and backslash escapes taken off. */
const markdownRead = (text: string) => text.replace(/`/g, '').replace(/\\(.)/g, '$1');
/** XML and HTML as read: tags taken off, character references decoded. */
const markupRead = (text: string) =>
  text
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

test('a violation reads the same in conformance.json, summary.md, the conformance page, index.html, junit.xml, ctrf.json and the console', async () => {
  const run = await runSuite(referenceTargetEnv(`${server.url}/variants/${fault.name}`));
  expect(run.exitCode, run.stdout + run.stderr).toBe(1);
  const clause = run.report?.clauses.find((c) => c.id === CLAUSE);
  const v = clause?.evidence?.violations[0];
  if (!clause || !v) throw new Error(`${CLAUSE} has no violation in conformance.json`);
  const words = `at ${v.pointer}: received ${v.received}; the document requires ${v.required}`;
  const line = `${v.request.method} ${v.request.path} → ${v.request.status}: ${words}`;
  expect(words).toBe('at /projects/0/health: received 100.5; the document requires a value of at most 100');

  const read = (name: string) => readFileSync(path.join(run.reportDir, name), 'utf8');
  // The test's message, kept as the clause's reason: the request on one line, the violation under it.
  expect(clause.reason).toContain(`  ${v.request.method} ${v.request.path} → ${v.request.status}\n    ${words}\n`);
  const markdown = markdownRead(read('summary.md'));
  expect(markdown, 'summary.md, the table of failures').toContain(`| ${line} |`);
  // The Markdown conformance page (docs/unleash/) lists the evidence under each failed clause.
  expect(markdownRead(renderConformancePage(run.report!)), 'the conformance page').toContain(`  - ${words}\n`);
  expect(markupRead(read('index.html')), 'index.html').toContain(`${v.request.method} ${v.request.path} → ${v.request.status}\n${words}\n`);
  expect(markupRead(read('junit.xml').match(/<failure message="([^"]*)"/)?.[1] ?? ''), 'junit.xml').toBe(line);
  const ctrf = JSON.parse(read('ctrf.json')) as { results: { tests: { testId: string; message?: string }[] } };
  expect(ctrf.results.tests.find((t) => t.testId === CLAUSE)?.message, 'ctrf.json').toBe(line);
  expect(run.stdout, 'the console').toContain(`\n      ${line}\n`);
});
