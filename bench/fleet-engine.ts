// `npm run bench:fleet -- --engine <targets>`'s child: a fleet of <targets> tenants spread over 10 conformant
// loopback origins (reference servers in a process of their own), judged by runConformance in this process under
// the default politeness budget. Prints one JSON line: time, exit code, targets written. The parent samples the
// whole process tree's memory from /proc (bench/tree-memory.ts).
import { fork } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REFERENCE_FIXTURES } from '../reference-server/fixtures.ts';
import { runConformance } from '../run/index.ts';

const ORIGINS = 10;
const [targets, work] = [Number(process.argv[2]), process.argv[3]];

/** The ten origins, served by a child process so that the tree's memory counts them as a real fleet's would not. */
async function origins(): Promise<{ urls: string[]; stop: () => void }> {
  const child = fork(path.join(__dirname, 'fleet-origins.ts'), [String(ORIGINS)], { execArgv: ['--import', 'tsx'] });
  const urls = await new Promise<string[]>((resolve) => child.once('message', (m) => resolve(m as string[])));
  return { urls, stop: () => child.kill() };
}

async function main(): Promise<void> {
  const { urls, stop } = await origins();
  const file = path.join(work, 'fleet.yaml');
  const lines = Array.from(
    { length: targets },
    (_, i) => `  - { name: t${i}, baseUrl: "${urls[i % ORIGINS]}", tags: { origin: o${i % ORIGINS}, tier: ${i % 3 ? 'free' : 'gold'} } }`,
  );
  writeFileSync(
    file,
    `defaults: { adminTokenFrom: CONFORMANCE_TOKEN_ADMIN, forbiddenTokenFrom: CONFORMANCE_TOKEN_FORBIDDEN, signupTokensFrom: CONFORMANCE_TOKEN_SIGNUP }\ntargets:\n${lines.join('\n')}\n`,
  );
  const started = performance.now();
  try {
    const result = await runConformance({
      targets: [file],
      reportDir: path.join(work, 'report'),
      env: {
        CONFORMANCE_TOKEN_ADMIN: REFERENCE_FIXTURES.adminToken,
        CONFORMANCE_TOKEN_FORBIDDEN: REFERENCE_FIXTURES.forbiddenToken,
        CONFORMANCE_TOKEN_SIGNUP: REFERENCE_FIXTURES.signupTokens.join(','),
      },
    });
    const written = result.targets.filter((t) => existsSync(path.join(t.reportDir, 'conformance.json'))).length;
    process.stdout.write(`${JSON.stringify({ wallMs: performance.now() - started, exitCode: result.exitCode, written, reason: result.reason })}\n`);
  } finally {
    stop();
  }
}

void main();
