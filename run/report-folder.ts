import path from 'node:path';
import { loadCatalogue } from '../harness/contracts/catalogue.ts';
import { loadProfiles } from '../harness/contracts/profiles.ts';
import { contractsHash } from '../harness/contracts/contracts.ts';
import { specDocument } from '../harness/contracts/document.ts';
import { SUITE_VERSION } from '../harness/contracts/run-identity.ts';
import type { ConfigError } from '../harness/files/config-error.ts';
import { visible } from '../harness/files/visible.ts';
import type { Product } from '../harness/config/product.ts';
import { RUN_OUTPUT, takeReportFolder } from '../harness/config/report-folder.ts';
import { folderToTakeOnConfigError } from '../harness/config/replay-folder.ts';
import type { Source } from '../harness/config/sources.ts';
import type { RunTargets } from '../harness/config/targets.ts';
import { writeArtifacts } from '../reporters/artifacts.ts';
import { incompleteReport, type ConformanceReport } from '../reporters/conformance-result.ts';
import { refusalReport } from '../reporters/refusal-report.ts';
import type { Output } from './output.ts';

// The report folder belongs to one run: taken at its start, before any request. A run of one target leaves an
// incomplete verdict there until it writes the real one; a run of several has no matrix until its end, and each
// target's folder holds nothing until its reports are written: what an earlier run left is gone either way.

function placeholder(target: ConformanceReport['target'], product?: Product, claim?: string[]): ConformanceReport {
  return incompleteReport(loadCatalogue(), {
    suiteVersion: SUITE_VERSION,
    contractsHash: contractsHash(),
    document: specDocument(),
    product,
    target,
    startedAt: new Date().toISOString(),
    profiles: loadProfiles(),
    claim,
  });
}

/** The run's reports could not be written as it started (ENOSPC, EROFS, EIO...): no verdict, exit code 3. */
export class ReportsUnwritten extends Error {
  constructor(readonly code: string) {
    super(`the reports could not be written (${code})`);
  }
}

/**
 * Takes every report folder of the run and, for a run of one target, leaves an incomplete report in it; returns what
 * lets the folder go. A run of several writes nothing before its first target's reports: an incomplete report in
 * each of 10,000 targets' folders, replaced by its real one minutes later, would be most of a fleet's writing.
 */
export function startRun(run: RunTargets, output: Output): () => void {
  // What this run writes: its reports, and with several targets each one's folder below targets/.
  const folders = run.multi ? run.targets.map((t) => path.relative(run.reportDir, t.reportDir).split(path.sep).join('/')) : [];
  const release = takeReportFolder(run.reportDir, [...RUN_OUTPUT, ...folders]);
  try {
    for (const t of run.multi ? [] : run.targets) {
      const report = placeholder({ name: t.name, baseUrl: t.baseUrl || 'http://127.0.0.1', embedded: t.embedded }, t.product, t.claim);
      writeArtifacts(report, t.reportDir);
    }
  } catch (error) {
    release();
    // A disk full (or read-only) as the run starts is no fault of the settings, nor of the suite's: no verdict, one line.
    const { code } = error as NodeJS.ErrnoException;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) throw new ReportsUnwritten(code);
    throw error;
  }
  // A notice names a target file as given, escaped as a configuration error's quotes are (harness/files/config-error.ts).
  for (const notice of new Set(run.targets.flatMap((t) => t.notices))) output.err(`conformance: notice: ${visible(notice)}\n`);
  return release;
}

/**
 * A configuration error still takes the report folder, when it can be named, so that no earlier verdict stands
 * there (a report published after a failed step would show it); the line says what is wrong. Exit code 2.
 */
export function refuseConfiguration(error: ConfigError, env: Source, cwd: string, output: Output): void {
  output.err(`conformance: configuration error: ${error.message}\n`);
  const reportDir = folderToTakeOnConfigError(env, cwd);
  if (reportDir === undefined) return;
  let release: (() => void) | undefined;
  try {
    release = takeReportFolder(reportDir);
    writeArtifacts(refusalReport(`configuration error: ${error.message}`), reportDir);
  } catch {
    // the folder is what the configuration got wrong, or another run holds it: the line above says enough
  } finally {
    release?.();
  }
}
