import { loadCatalogue } from '../contracts/catalogue.ts';
import { loadProfiles } from '../contracts/profiles.ts';
import type { ConfigError } from '../files/config-error.ts';
import { contractsHash } from '../contracts/contracts.ts';
import { specDocument } from '../contracts/document.ts';
import type { Product } from '../config/product.ts';
import { SUITE_VERSION } from '../contracts/run-identity.ts';
import path from 'node:path';
import { RUN_OUTPUT, takeReportFolder } from '../config/report-folder.ts';
import type { RunTargets } from '../config/targets.ts';
import { writeArtifacts } from '../../reporters/artifacts.ts';
import { incompleteReport, type ConformanceReport } from '../../reporters/conformance-result.ts';

// The report folder belongs to one run: taken at its start, before any request, and holding an
// incomplete verdict until the reporter writes the real one.

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

/** Takes every report folder of the run and leaves an incomplete report in each. */
export function startRun(run: RunTargets): void {
  // What this run writes: its reports, and with several targets each one's folder below targets/.
  const folders = run.multi ? run.targets.map((t) => path.relative(run.reportDir, t.reportDir).split(path.sep).join('/')) : [];
  takeReportFolder(run.reportDir, [...RUN_OUTPUT, ...folders]);
  for (const t of run.targets) {
    const report = placeholder({ name: t.name, baseUrl: t.baseUrl || 'http://127.0.0.1', embedded: t.embedded }, t.product, t.claim);
    writeArtifacts(report, t.reportDir);
  }
  for (const notice of new Set(run.targets.flatMap((t) => t.notices))) process.stderr.write(`conformance: notice: ${notice}\n`);
}

/** A configuration error still takes the folder, when it can be named, so that no earlier verdict stands there. */
export function stopOnConfigError(error: ConfigError, reportDir: string | undefined): never {
  process.stderr.write(`conformance: configuration error: ${error.message}\n`);
  if (reportDir !== undefined) {
    try {
      takeReportFolder(reportDir);
      // No target was read: the report names none rather than invent one.
      const { target: _none, ...report } = placeholder({ name: '', baseUrl: '', embedded: false });
      const reason = `configuration error: ${error.message}`;
      writeArtifacts({ ...report, verdict: 'error', errors: [reason], clauses: report.clauses.map((c) => ({ ...c, reason })) }, reportDir);
    } catch {
      // the folder is what the configuration got wrong, or another run holds it: the line above says enough
    }
  }
  process.exit(2);
}
