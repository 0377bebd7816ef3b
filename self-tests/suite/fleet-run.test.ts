import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import type { MatrixReport } from '../../reporters/matrix-result.ts';
import { echoingSecrets, spellings } from '../support/echoing-target.ts';
import { hugeBody, neverAnswers, serveHttp, writeAnswer, type LoopbackServer } from '../support/hostile-servers.ts';
import { canary, contentsUnder, leaks, type Canary } from '../support/leaks.ts';
import { runSuiteProcess } from '../support/run-suite.ts';

// Fifty deployments in one run, as a vendor checks its tenants: most faithful, some failing one clause on one
// version, some that never answer, some whose answers never end, some that quote their tokens back. One test
// per clause carries them all; each keeps its own verdict, report and secrets; the run ends within its bound.

const EXPIRED = FAULTS.find((f) => f.name === 'expired-token-enabled')!;
const FAITHFUL = 35;
const FAILING = 5;
const HOSTILE = 3;

/** An echoing tenant's own tokens, each a canary: found anywhere in any written form, it leaked. */
function echoTokens(n: number): { admin: Canary; forbidden: Canary; signup: Canary[] } {
  return {
    admin: canary(`ECHO${n}_ADMIN`, `*:*.echo-${n}-admin/"`),
    forbidden: canary(`ECHO${n}_FORBIDDEN`, `echo-${n}-viewer+`),
    signup: [1, 2].map((s) => canary(`ECHO${n}_SIGNUP #${s}`, `echo-${n}-signup~${s}.`)),
  };
}

/**
 * A fleet with targets that error every clause fails every test, and each failed test restarts Playwright's
 * worker: on a busy machine (load 15 on two cores) that alone takes a minute or more. The bound this test
 * holds the run to is each target's own deadline, not the wall clock.
 */
const FLEET_RUN_MS = 300_000;
test.describe.configure({ timeout: FLEET_RUN_MS + 60_000 });

test('fifty tenants in one run: one test per clause, each tenant its own verdict and report, shared failures grouped, no token of one in any file, each held to its own deadline', async () => {
  const reference = await startReferenceServer(0, [EXPIRED]);
  const hanging = await neverAnswers();
  const huge = await hugeBody({ declareLength: false });
  const tokens = [1, 2, 3, 4].map(echoTokens);
  const echoing = await Promise.all(
    tokens.slice(0, 3).map((t) => echoingSecrets({ admin: t.admin.value, forbidden: t.forbidden.value, signup: t.signup.map((c) => c.value) })),
  );
  // A backend shared with echo-1 that quotes echo-1's tokens, in their spellings, to whoever asks.
  const leaky = await serveHttp((_req, res) => {
    const quoted = [tokens[0].admin, tokens[0].forbidden, ...tokens[0].signup].flatMap((c) => spellings(c.value));
    const body = { version: 1, projects: quoted.map((q, i) => ({ id: `p${i}`, name: q, description: q, health: 'x' })) };
    writeAnswer(res, 200, { 'content-type': 'application/json' }, Buffer.from(JSON.stringify(body)));
  });
  const servers: LoopbackServer[] = [hanging, huge, leaky, ...echoing];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-fleet-run-'));
  try {
    const entry = (name: string, baseUrl: string, extra = '') => `  - { name: ${name}, baseUrl: "${baseUrl}"${extra} }`;
    const unleash = (version: string) => `, product: { name: Unleash, version: "${version}" }`;
    const lines = [
      ...Array.from({ length: FAITHFUL }, (_, i) => entry(`faithful-${i + 1}`, reference.url, unleash('8.2.0'))),
      ...Array.from({ length: FAILING }, (_, i) => entry(`expired-${i + 1}`, `${reference.url}/variants/${EXPIRED.name}`, unleash('8.1.0'))),
      // Only these have a short deadline: on a busy machine a faithful answer may take longer than it.
      ...Array.from({ length: HOSTILE }, (_, i) => entry(`hanging-${i + 1}`, hanging.url, ', timeoutMs: 1500')),
      ...Array.from({ length: HOSTILE }, (_, i) => entry(`huge-${i + 1}`, huge.url, ', timeoutMs: 1500')),
      ...echoing.map((server, i) =>
        entry(
          `echo-${i + 1}`,
          server.url,
          `, adminTokenFrom: ECHO${i + 1}_ADMIN, forbiddenTokenFrom: ECHO${i + 1}_FORBIDDEN, signupTokensFrom: ECHO${i + 1}_SIGNUP`,
        ),
      ),
      // A tenant on a backend that quotes echo-1's tokens, which it was never sent, with tokens of its own.
      entry('cross-1', leaky.url, ', adminTokenFrom: ECHO4_ADMIN, forbiddenTokenFrom: ECHO4_FORBIDDEN, signupTokensFrom: ECHO4_SIGNUP'),
    ];
    const fleet = path.join(dir, 'fleet.yaml');
    writeFileSync(
      fleet,
      `defaults: { adminTokenFrom: REF_ADMIN, forbiddenTokenFrom: REF_FORBIDDEN, signupTokensFrom: REF_SIGNUP, maxBodyBytes: 1048576 }\ntargets:\n${lines.join('\n')}\n`,
    );
    const env: Record<string, string> = {
      CONFORMANCE_TARGETS: fleet,
      REF_ADMIN: REFERENCE_FIXTURES.adminToken,
      REF_FORBIDDEN: REFERENCE_FIXTURES.forbiddenToken,
      REF_SIGNUP: REFERENCE_FIXTURES.signupTokens.join(','),
    };
    for (const [i, t] of tokens.entries()) {
      env[`ECHO${i + 1}_ADMIN`] = t.admin.value;
      env[`ECHO${i + 1}_FORBIDDEN`] = t.forbidden.value;
      env[`ECHO${i + 1}_SIGNUP`] = t.signup.map((c) => c.value).join(',');
    }
    const run = await runSuiteProcess({ ...env, CONFORMANCE_RUN_TIMEOUT_MS: String(FLEET_RUN_MS) }, [], FLEET_RUN_MS + 30_000);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    // One test per clause carries every tenant: not a worker, nor a test, per tenant; its line says how many gave its status.
    expect(run.stdout).toContain(`\n${loadCatalogue().length} clauses judged:\n`);
    expect(run.stdout).toMatch(/^ {2}✘ failed +signup-token\.state\.expired-not-enabled \(\d+ of 50 targets\) /m);

    const matrix = run.report as unknown as MatrixReport;
    const verdicts = Object.fromEntries(matrix.targets.map((t) => [t.name, t.verdict]));
    expect(matrix.targets).toHaveLength(50);
    expect(
      Object.entries(verdicts)
        .filter(([n]) => n.startsWith('faithful-'))
        .every(([, v]) => v === 'pass'),
    ).toBe(true);
    expect(
      Object.entries(verdicts)
        .filter(([n]) => n.startsWith('expired-'))
        .every(([, v]) => v === 'fail'),
    ).toBe(true);
    // A tenant that never answers, or whose lists never end, has no verdict; it holds no other past its own deadline.
    for (const name of ['hanging-1', 'hanging-2', 'hanging-3', 'huge-1', 'huge-2', 'huge-3']) expect(verdicts[name], name).toBe('error');
    // Each was stopped by its own bounds, which its report names: 1.5 s a request, 1 MiB a body.
    const reportOf = (name: string) => readFileSync(path.join(run.reportDir, 'targets', name, 'conformance.json'), 'utf8');
    expect(reportOf('hanging-1')).toContain('no answer within 1500 ms (CONFORMANCE_TIMEOUT_MS)');
    expect(reportOf('huge-1')).toContain('the body is larger than 1048576 bytes (CONFORMANCE_MAX_BODY_BYTES); reading stopped');
    for (const name of ['echo-1', 'echo-2', 'echo-3', 'cross-1']) expect(verdicts[name], name).not.toBe('pass');

    // The five tenants on 8.1.0 that enable an expired token are one line.
    const expired = matrix.signatures!.find((s) => s.clause === 'signup-token.state.expired-not-enabled' && s.product === 'Unleash 8.1.0');
    expect(expired?.targets).toEqual(['expired-1', 'expired-2', 'expired-3', 'expired-4', 'expired-5']);
    expect(matrix.signatures!.filter((s) => s.targets.some((t) => t.startsWith('faithful-')))).toEqual([]);
    for (const t of matrix.targets) expect(existsSync(path.join(run.reportDir, path.dirname(t.report), 'conformance.json')), t.name).toBe(true);
    // A passing tenant has no line of its own in the terminal; one that does not pass has one.
    expect(run.stdout).not.toMatch(/PASS {2}faithful-/);
    expect(run.stdout).toMatch(/FAIL {2}expired-3 \(/);

    const everyToken = tokens.flatMap((t) => [t.admin, t.forbidden, ...t.signup]);
    const found = leaks([['stdout', run.stdout], ['stderr', run.stderr], ...contentsUnder(run.reportDir)], everyToken);
    expect(found).toEqual([]);
    // Each echoing tenant was asked with its own token, and no other's.
    for (const [i, server] of echoing.entries())
      expect(new Set(server.seen.map((r) => r.authorization).filter(Boolean))).not.toContain(tokens[(i + 1) % 3].admin.value);
    // The shared backend quoted echo-1's tokens to cross-1, which was never sent them: they stand as another target's.
    expect(readFileSync(path.join(run.reportDir, 'targets', 'cross-1', 'conformance.json'), 'utf8')).toContain('$OTHER_TARGET_TOKEN_');
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    await new Promise<void>((resolve) => reference.server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  }
});
