// @ts-check
// The type check and the lint side by side (each takes a core for a few seconds), each one's output printed whole
// once it ends, so that two failures never interleave; the exit code is the first failure's, 0 when both pass.
const { spawn } = require('node:child_process');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);
const CHECKS = [
  ['typecheck', bin('tsc'), ['--noEmit']],
  ['lint', bin('biome'), ['ci', '.']],
];

/** @returns {Promise<number>} the check's exit code, its output printed */
function check([name, command, args]) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    /** @type {Buffer[]} */
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      process.stdout.write(`> ${name}: ${code === 0 ? 'passed' : `failed (exit code ${code})`}\n`);
      if (code !== 0) process.stdout.write(Buffer.concat(output));
      resolve(code ?? 1);
    });
  });
}

Promise.all(CHECKS.map(check)).then((codes) => {
  process.exitCode = codes.find((code) => code !== 0) ?? 0;
});
