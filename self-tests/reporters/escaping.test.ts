import { expect, test } from '@playwright/test';
import type { Clause } from '../../harness/contracts/catalogue.ts';
import type { ClauseEvidence, ExchangeEvidence } from '../../harness/judging/verdicts.ts';
import { buildConformanceReport, type ClauseRun, type ConformanceReport, type RunMeta } from '../../reporters/conformance-result.ts';
import { consoleSummary } from '../../reporters/console-summary.ts';
import { renderHtml } from '../../reporters/html.ts';
import { renderJunit } from '../../reporters/junit.ts';
import { renderConformancePage, renderMarkdown } from '../../reporters/markdown.ts';
import { buildMatrixReport } from '../../reporters/matrix-result.ts';
import { renderMatrixHtml, renderMatrixMarkdown } from '../../reporters/matrix-render.ts';
import { leaveChromium, sharedChromium } from '../support/browser.ts';

// Text from a target (or from a report merged from shards, or a file of the user's) is shown, never
// obeyed: escape sequences and bidi controls are written as escapes in the terminal, and HTML and
// Markdown show every quoted string as text.

// Markup of every medium, terminal sequences and line breaks that would forge lines, rows and headings.
const HOSTILE =
  '<img src=x onerror="window.injected=1"><script>window.injected=2</script>`|*_[x](javascript:alert(1))$a$ @team &amp; \u001b[2J\u009b31m\u202eevil\u2066\n| forged | row |\n```\n# heading';

/** Every character a terminal, HTML or Markdown would obey rather than show. */
const HIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

function exchange(text: string): ExchangeEvidence {
  return {
    method: 'GET',
    path: `/api/admin/${text}`,
    credential: 'admin',
    status: 403,
    contentType: `application/json; x=${text}`,
    durationMs: 1,
    bodyExcerpt: `{"name":"${text}"}\n${text}`,
    curl: `curl ${text}`,
  };
}

function evidence(clause: string, text: string): ClauseEvidence {
  return {
    clause,
    outcome: 'failed',
    instances: 1,
    violations: [{ pointer: `/${text}`, received: text, required: text, request: exchange(text) }],
    violationsCut: 0,
    unevaluable: [{ reason: text, request: exchange(text) }],
    observations: { [text]: text, fields: [{ field: `/${text}`, count: 1 }] },
  };
}

const CATALOGUE: Clause[] = [
  { id: 'a.must', section: '2.1', level: 'MUST', title: 'a requirement' },
  { id: 'b.must', section: '3', level: 'MUST', title: 'another requirement' },
  { id: 'c.info', section: '4.1', level: 'INFO', title: 'an observation' },
];

/** A report in which every string a target, a user's file or a merged report can set is `text`. */
function reportQuoting(text: string): ConformanceReport {
  const meta: RunMeta = {
    suiteVersion: '0',
    contractsHash: 'h',
    profiles: [],
    document: { title: text, sha256: '0'.repeat(64), readFrom: text },
    product: { name: text, version: text, vendor: text, contact: text },
    target: { name: text, baseUrl: `http://t.invalid/${text}`, embedded: false, reportedVersion: { [text]: text } },
    startedAt: '2026-01-01T00:00:00Z',
    durationMs: 1,
    runStatus: 'passed',
    runErrors: [],
    deviations: [{ clause: 'b.must', reason: text, link: `https://x.invalid/${text}` }],
    today: '2026-06-01',
    consistency: {
      rounds: 2,
      concurrency: 1,
      consistent: false,
      inconsistent: [{ method: 'GET', path: `/${text}`, credential: 'admin', answers: { [text]: 1, other: 1 } }],
      latencyMs: {},
    },
  };
  const runs: ClauseRun[] = [
    { clause: 'a.must', outcome: 'failed', evidence: evidence('a.must', text), reason: text },
    { clause: 'b.must', outcome: 'failed', evidence: evidence('b.must', text), reason: text },
    { clause: 'c.info', outcome: 'passed', evidence: evidence('c.info', text) },
  ];
  return buildConformanceReport(CATALOGUE, runs, meta);
}

const hostile = reportQuoting(HOSTILE);
// As many line breaks as the hostile text, so that a body excerpt, which keeps its lines, has as many.
const harmless = reportQuoting(HOSTILE.replace(/[^\n]/g, 'x'));

test('the console summary shows every quoted string on its own line, control and bidi characters escaped', () => {
  const summary = consoleSummary(hostile, ['report.json']);
  expect(summary).not.toMatch(HIDDEN);
  expect(summary).toContain('\\u001b[2J\\u009b31m\\u202eevil\\u2066\\n| forged | row |');
  expect(summary.split('\n').length).toBe(consoleSummary(harmless, ['report.json']).split('\n').length);
});

/** A line with its code spans taken out: a run of n backticks up to the next run of exactly n (CommonMark). */
function outsideCode(line: string): string {
  let out = '';
  for (let i = 0; i < line.length; ) {
    const run = /^`+/.exec(line.slice(i))?.[0];
    if (!run) {
      out += line[i++];
      continue;
    }
    const close = new RegExp(`(?<!\`)${run}(?!\`)`, 'g');
    close.lastIndex = i + run.length;
    const end = close.exec(line);
    if (!end) return out + line.slice(i);
    i = end.index + run.length;
  }
  return out;
}

/** Markup a quoted string could start outside code, unless a backslash makes it literal. */
const MARKUP = /(?<!\\)(?:<img|<script|\[x\]|\$a\$|@team|&amp;|\|\s*forged)/;

/** The lines outside fenced code blocks; a block ends only at a fence of at least as many backticks (CommonMark). */
function outsideBlocks(lines: string[]): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const run = /^ *(`{3,})/.exec(line)?.[1];
    if (fence === undefined && run) fence = run;
    else if (fence !== undefined && run && run.length >= fence.length && /^ *`+ *$/.test(line)) fence = undefined;
    else if (fence === undefined) out.push(line);
  }
  return out;
}

/** Table rows with more or fewer cells than their table's header: a quoted "|" must be escaped, in code spans too. */
function rowsWithOtherCells(lines: string[]): string[] {
  const wrong: string[] = [];
  let header: number | undefined;
  for (const line of lines) {
    if (!line.startsWith('|')) header = undefined;
    else if (header === undefined) header = line.split(/(?<!\\)\|/).length;
    else if (line.split(/(?<!\\)\|/).length !== header) wrong.push(line);
  }
  return wrong;
}

for (const [name, render] of [
  ['summary.md', renderMarkdown],
  ['the conformance page', renderConformancePage],
] as const) {
  test(`${name} shows every quoted string as text: no markup, no HTML, no forged line, row, heading or fence`, () => {
    const markdown = render(hostile);
    const lines = outsideBlocks(markdown.split('\n'));
    expect(markdown).not.toMatch(HIDDEN);
    expect(markdown.split('\n').length).toBe(render(harmless).split('\n').length);
    expect(lines.filter((l) => MARKUP.test(outsideCode(l)))).toEqual([]);
    expect(lines.filter((l) => /^\s*#/.test(l) && !/^#{2,3} /.test(l))).toEqual([]);
    expect(rowsWithOtherCells(lines)).toEqual([]);
  });
}

test('the matrix summary escapes target names in its rows and columns', () => {
  const matrix = buildMatrixReport(
    [
      { report: hostile, path: 'a/index.html' },
      { report: harmless, path: 'b/index.html' },
    ],
    1,
  );
  const markdown = renderMatrixMarkdown(matrix);
  expect(markdown).not.toMatch(HIDDEN);
  expect(markdown.split('\n').filter((l) => MARKUP.test(outsideCode(l)))).toEqual([]);
  // The page's one script is its own (sorting and filtering the targets); nothing of the target's becomes an element.
  const page = renderMatrixHtml(matrix);
  expect(page.match(/<script/g)).toHaveLength(1);
  expect(page.replace(/<script>[\s\S]*?<\/script>/, '')).not.toMatch(/<img|<script|\u001b/);
});

test('index.html shows every quoted string as text: no element, script or hidden character of the target runs in the page', async () => {
  const html = renderHtml(hostile);
  expect(html).not.toMatch(HIDDEN);
  const browser = await sharedChromium();
  try {
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.setContent(html);
    const injected = await page.evaluate(() => ({
      elements: document.querySelectorAll('img, script, [onerror], a[href^="javascript"]').length,
      flag: (window as unknown as { injected?: number }).injected,
    }));
    expect(injected).toEqual({ elements: 0, flag: undefined });
    expect(dialogs).toEqual([]);
    expect(await page.locator('body').innerText()).toContain('<img src=x onerror="window.injected=1"><script>');
  } finally {
    await leaveChromium(browser);
  }
});

/** A character XML 1.0 forbids (its Char production): what no XML file may hold, whatever a target sent. */
const NOT_XML = /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

// Whatever a target sends, every XML file is XML 1.0: controls, lone surrogate halves and noncharacters of every
// plane, quoted as evidence, are written as escapes in junit.xml, of one target and of several.
test('every XML file is XML 1.0 whatever a target sends: controls, noncharacters of every plane and lone surrogates are escaped', () => {
  const forbidden = ['\ufffe', '\uffff', '\ufdd0', '\ufdef', '\u{1fffe}', '\u{10ffff}', '\ud800', '\udfff', '\u0000', '\u000b', '\u001f'];
  const report = reportQuoting(`quoted ${forbidden.join(' ')} end`);
  const single = renderJunit([report]);
  const several = renderJunit([report, { ...report, target: { ...report.target, name: `second ${forbidden.join('')}` } }]);
  for (const xml of [single, several]) {
    expect(xml.match(NOT_XML)).toBeNull();
    // Each is shown, as the notation received values use, never dropped.
    expect(xml).toContain('\\ufffe');
    expect(xml).toContain('\\u{10ffff}');
  }
  // The badge and the page are XML-like too.
  expect(renderHtml(report).match(NOT_XML)).toBeNull();
});
