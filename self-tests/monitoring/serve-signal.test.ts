import { spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { COMMAND, commandEnv, noteRun } from '../support/run-suite.ts';
import { runUnderWay } from './exporter-in-process.ts';
import { samplesOf, startTenants } from './tenants.ts';

// What only a process shows: the command `admin-api-conformance serve`, sent SIGTERM while a probe's run is under
// way, lets that run end and answer, then exits 0.

test('SIGTERM lets the run under way end and answer, and the command exits 0', async () => {
  const tenants = await startTenants(['tenant-ok'], []);
  const started = Date.now();
  const child = spawn(process.execPath, [COMMAND, 'serve', '--listen', '127.0.0.1:0', '--min-interval', '0'], {
    env: commandEnv(tenants.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let [stdout, stderr] = ['', ''];
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const found = /listens on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (found) resolve(found[1]);
      });
      void exited.then((code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
    const probe = fetch(`${url}/probe?target=tenant-ok`).then(async (r) => ({ status: r.status, body: await r.text() }));
    await runUnderWay(url);
    child.kill('SIGTERM');
    const answer = await probe;
    expect(answer.status, stderr).toBe(200);
    expect(samplesOf(answer.body).get('conformance_verdict{target="tenant-ok",verdict="pass"}')).toBe(1);
    const code = await exited;
    noteRun(started, code, stdout);
    expect(code).toBe(0);
    expect(stdout).toContain('The exporter stopped.');
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await tenants.close();
  }
});
