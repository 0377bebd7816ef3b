import path from 'node:path';
import { BundleError } from '../harness/evidence/bundle-error.ts';
import { readBundle } from '../harness/evidence/bundle-reader.ts';
import { printable, verifyOutput } from './verify-output.ts';
import { verifyBundle } from './verify.ts';

// `admin-api-conformance verify <bundle> [--anyway]`: 0 when the bundle holds, 1 when it does not (each
// difference named), 2 when it cannot be verified here (no bundle that can be read, or another suite's
// without --anyway).

const USAGE = 'usage: admin-api-conformance verify <evidence.tar.gz or bundle folder> [--anyway]';

async function main(args: string[]): Promise<number> {
  const anyway = args.includes('--anyway');
  const where = args.filter((a) => a !== '--anyway');
  if (where.length !== 1 || where[0].startsWith('-')) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  let result: ReturnType<typeof verifyBundle>;
  try {
    result = verifyBundle(readBundle(path.resolve(where[0])), { anyway });
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    process.stderr.write(`${printable(`admin-api-conformance verify: ${where[0]} cannot be verified: ${error.message}`)}\n`);
    return 2;
  }
  const { lines, exitCode } = verifyOutput(result, anyway);
  process.stdout.write(lines.map((line) => `${line}\n`).join(''));
  return exitCode;
}

main(process.argv.slice(2)).then(
  // The code is set, not exited with: output to a pipe is written after this line, and an exit would cut it.
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    process.stderr.write(`${printable(`admin-api-conformance verify: ${error.message}`)}\n`);
    process.exitCode = 2;
  },
);
