import { writeWhole, writeWholeAsync } from '../harness/files/whole-file.ts';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { renderBadge, renderMatrixBadge } from './badge.ts';
import type { ReportView } from './conformance-result.ts';
import { renderCtrf, renderMatrixCtrf } from './ctrf.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';
import type { MatrixReport } from './matrix-result.ts';
import { renderMatrixHtml, renderMatrixMarkdown } from './matrix-render.ts';
import { makeFolder } from '../harness/files/folders.ts';

/**
 * Each file whole or not at all (written beside, then renamed): a full disk or a killed run leaves the file as it
 * was, the incomplete report of the run's start, never half of one that no reader can read.
 */
function write(dir: string, files: [string, string][], stepSummary: string | undefined): string[] {
  makeFolder(dir);
  for (const [name, content] of files) writeWhole(path.join(dir, name), content);
  return written(dir, files, stepSummary);
}

/** The paths of the files written, once summary.md is added to a CI job's step summary when there is one. */
function written(dir: string, files: [string, string][], stepSummary: string | undefined): string[] {
  const markdown = files.find(([name]) => name === 'summary.md');
  if (stepSummary && markdown) appendFileSync(stepSummary, markdown[1]);
  return files.map(([name]) => path.join(dir, name));
}

/** The files a run leaves beside its bundle, each rendered from the one report: by name, with their text. */
export function renderArtifacts(report: ReportView): [string, string][] {
  return [
    ['conformance.json', `${JSON.stringify(report, null, 2)}\n`],
    ['index.html', renderHtml(report)],
    ['summary.md', renderMarkdown(report)],
    ['badge.svg', renderBadge(report)],
    ['junit.xml', renderJunit([report])],
    ['ctrf.json', renderCtrf(report)],
  ];
}

/** Writes the files a run leaves, rendered from the one report unless given so. Returns their paths. */
export function writeArtifacts(report: ReportView, dir: string, stepSummary?: string, rendered = renderArtifacts(report)): string[] {
  return write(dir, rendered, stepSummary);
}

/**
 * Writes the files rendered of a target's report as writeArtifacts does, side by side on Node's own threads, so that
 * a fleet's run judges other targets meanwhile. Returns their paths once every one is written.
 */
export async function writeArtifactsAsync(dir: string, rendered: [string, string][], stepSummary?: string): Promise<string[]> {
  makeFolder(dir);
  // Every write ended before the first failure is told: none goes on behind the caller's back.
  const ended = await Promise.allSettled(rendered.map(([name, content]) => writeWholeAsync(path.join(dir, name), content)));
  const failed = ended.find((e) => e.status === 'rejected');
  if (failed) throw failed.reason;
  return written(dir, rendered, stepSummary);
}

/**
 * The files of a run over several targets: the matrix beside each target's own folder. Its junit.xml and ctrf.json
 * hold every target's tests, as a CI system reads one of each per job: rendered from `reports`, or, undefined,
 * written target by target (junit-parts.ts, ctrf-parts.ts) and named here.
 */
export function writeMatrixArtifacts(matrix: MatrixReport, reports: ReportView[] | undefined, dir: string, stepSummary?: string): string[] {
  const written = write(
    dir,
    [
      ['conformance.json', `${JSON.stringify(matrix, null, 2)}\n`],
      ['index.html', renderMatrixHtml(matrix)],
      ['summary.md', renderMatrixMarkdown(matrix)],
      ['badge.svg', renderMatrixBadge(matrix)],
      // Every target's testsuite (its tests) in one file, as a CI system reads one junit.xml (ctrf.json) per job.
      ...(reports
        ? ([
            ['junit.xml', renderJunit(reports)],
            ['ctrf.json', renderMatrixCtrf(matrix, reports)],
          ] as [string, string][])
        : []),
    ],
    stepSummary,
  );
  return reports ? written : [...written, path.join(dir, 'junit.xml'), path.join(dir, 'ctrf.json')];
}
