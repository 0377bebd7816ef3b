import path from 'node:path';
import { BundleError } from '../harness/bundle-error.ts';
import { readBundle } from '../harness/bundle-reader.ts';
import { VERDICT_LABEL } from './sections.ts';
import { verifyBundle } from './verify.ts';

// `admin-api-conformance verify <bundle> [--anyway]`: 0 when the bundle holds, 1 when it does not (each
// difference named), 2 when it cannot be verified here (no bundle, or another suite's without --anyway).

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
    process.stderr.write(`admin-api-conformance verify: ${where[0]} cannot be verified: ${error.message}\n`);
    return 2;
  }
  const { manifest } = result;
  process.stdout.write(
    `Bundle of ${manifest?.target.name} (${manifest?.target.baseUrl}), made ${manifest?.createdAt} by ${manifest?.suite.name} ${manifest?.suite.version}, contracts ${manifest?.suite.contractsHash}\n`,
  );
  if (result.refused) {
    process.stdout.write(`${anyway ? 'judged anyway' : 'refused'}: ${result.refused}\n`);
    if (!anyway) {
      for (const d of result.differences) process.stdout.write(`  difference  ${d}\n`);
      process.stdout.write('  verify it with the suite that made it, or judge it again with this one: --anyway\n');
      return 2;
    }
  }
  if (result.leftOut.length > 0) process.stdout.write(`  ${result.leftOut.length} clause(s) were not judged in the run, and are left out here too\n`);
  for (const d of result.differences) process.stdout.write(`  difference  ${d}\n`);
  if (result.differences.length > 0) {
    process.stdout.write(`NOT VERIFIED: ${result.differences.length} difference(s) between the bundle and what this suite finds in it\n`);
    return 1;
  }
  const verdict = result.rejudged!.verdict;
  process.stdout.write(
    `VERIFIED: every digest holds, and every clause judged again from the exchanges has the status the report gives it; verdict ${VERDICT_LABEL[verdict]}\n`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`admin-api-conformance verify: ${error.message}\n`);
    process.exit(2);
  },
);
