import { loadCatalogue } from '../harness/contracts/catalogue.ts';
import { contractsHash } from '../harness/contracts/contracts.ts';
import { specDocument } from '../harness/contracts/document.ts';
import { loadProfiles } from '../harness/contracts/profiles.ts';
import { SUITE_VERSION } from '../harness/contracts/run-identity.ts';
import { incompleteReport, type ReportView } from './conformance-result.ts';

// What a refused run or merge leaves in its report folder in place of an earlier verdict: a page, badge and
// conformance.json published after the failed step say why there is no verdict, never the last pass.

/** The report of a refusal: no target (none was read, rather than invent one), verdict error, every clause not judged for `reason`. */
export function refusalReport(reason: string): ReportView {
  const { target: _none, ...report } = incompleteReport(loadCatalogue(), {
    suiteVersion: SUITE_VERSION,
    contractsHash: contractsHash(),
    document: specDocument(),
    target: { name: '', baseUrl: '', embedded: false },
    startedAt: new Date().toISOString(),
    profiles: loadProfiles(),
  });
  return { ...report, verdict: 'error', errors: [reason], clauses: report.clauses.map((c) => ({ ...c, reason })) };
}
