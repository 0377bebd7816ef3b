import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderBadge } from './badge.ts';
import type { ConformanceReport } from './conformance-result.ts';
import { renderHtml } from './html.ts';
import { renderMarkdown } from './markdown.ts';

/** The files a run leaves, each rendered from the one report. Returns their paths. */
export function writeArtifacts(report: ConformanceReport, dir: string, stepSummary?: string): string[] {
  mkdirSync(dir, { recursive: true });
  const files: [string, string][] = [
    ['conformance.json', `${JSON.stringify(report, null, 2)}\n`],
    ['index.html', renderHtml(report)],
    ['summary.md', renderMarkdown(report)],
    ['badge.svg', renderBadge(report)],
  ];
  for (const [name, content] of files) writeFileSync(path.join(dir, name), content);
  if (stepSummary) appendFileSync(stepSummary, files[2][1]);
  return files.map(([name]) => path.join(dir, name));
}
