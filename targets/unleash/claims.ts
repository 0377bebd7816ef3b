import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { checkedReport, readJsonFile } from '../../readers/report-file.ts';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import { log, run } from './supervisor.ts';
import { DEVIATIONS_FILE } from './deviations.ts';
import type { Run } from './unleash.ts';

// What a new user gets from a real deployment given its admin token alone (and its deviations file): with the
// claim narrowed to what that exercises, a pass that names its profiles; with the claim left whole, no
// verdict, exit code 3, naming what to supply. Each run is a black box: its exit code and its conformance.json.

interface Expectation {
  name: string;
  claim?: string;
  exitCode: number;
  check(report: ConformanceReport): string | undefined;
}

const EXPECTATIONS: Expectation[] = [
  {
    name: 'admin token alone, claim narrowed to core and projects-data',
    claim: 'core,projects-data',
    exitCode: 0,
    check: (r) =>
      r.verdict === 'pass' && r.claim.narrowed && r.claim.profiles.join(',') === 'core,projects-data'
        ? undefined
        : `expected a pass claiming core and projects-data, got ${r.verdict} claiming ${r.claim.profiles.join(', ')}`,
  },
  {
    name: 'admin token alone, every profile claimed',
    exitCode: 3,
    check: (r) => {
      const missing = r.claim.byProfile.filter((p) => p.status === 'not-exercised').map((p) => p.name);
      return r.verdict === 'partial' && missing.join(',') === 'signup-tokens,user-dates,expired-token,forbidden'
        ? undefined
        : `expected no verdict naming signup-tokens, user-dates, expired-token and forbidden, got ${r.verdict} with ${missing.join(', ')} not exercised`;
    },
  },
];

/** The target file of `target` with its admin token, base URL, deviations and product only. */
function adminTokenOnly(target: Run, claim: string | undefined): string {
  const file: unknown = parse(readFileSync(target.targetFile, 'utf8'));
  if (file === null || typeof file !== 'object') throw new Error(`${target.targetFile} is not a target file`);
  const kept = Object.fromEntries(Object.entries(file).filter(([k]) => ['name', 'baseUrl', 'adminToken', 'product', 'readProductVersion'].includes(k)));
  return `${JSON.stringify({ ...kept, deviations: DEVIATIONS_FILE, ...(claim ? { claim: claim.split(',') } : {}) })}\n`;
}

/** Runs each expectation against `target`; the ones that did not hold, in words. */
export async function checkClaims(target: Run, command: string, cwd: string): Promise<string[]> {
  const failures: string[] = [];
  for (const e of EXPECTATIONS) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-unleash-claim-'));
    try {
      const file = path.join(dir, 'target.yaml');
      writeFileSync(file, adminTokenOnly(target, e.claim), { mode: 0o600 });
      const env: NodeJS.ProcessEnv = { ...process.env, CONFORMANCE_TARGET: file, CONFORMANCE_REPORT_DIR: path.join(dir, 'report') };
      for (const variable of ['CONFORMANCE_TARGETS', 'HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy']) delete env[variable];
      const { code } = await run(process.execPath, [command], { cwd, env });
      const where = path.join(dir, 'report', 'conformance.json');
      const report = checkedReport(readJsonFile(where), where);
      const wrong = code !== e.exitCode ? `exit code ${code}, expected ${e.exitCode}` : e.check(report);
      log(`${target.name}, ${e.name}: ${wrong ?? `exit code ${code}, as documented`}`);
      if (wrong) failures.push(`${target.name}, ${e.name}: ${wrong}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return failures;
}
