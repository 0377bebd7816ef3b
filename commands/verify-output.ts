import { visible } from '../harness/files/visible.ts';
import { claimText, headline, productText } from '../reporters/sections.ts';
import type { Verification } from '../readers/verify.ts';

// What `verify` prints, as a pure function of its result. Every line may quote the bundle, which anyone can
// write: controls and escape sequences are shown as escapes, never sent to the terminal, and a URL's
// user and password (http://user:password@host) are never printed.

/** The user-and-password part of any URL in a text. */
const CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;

/** A line as it may reach a terminal: no credentials, every control visible. */
export const printable = (line: string) => visible(line.replace(CREDENTIALS, '$1'));

/** The attestation's signature, checked with another key than the one that signed it (harness/evidence/dsse.ts words it). */
const WRONG_KEY = /signed by another key|no signature verifies with the given key/;

/** The line that says why the bundle is not verified: a signature that does not match the key is said as such, not counted. */
function notVerified(differences: string[]): string {
  if (differences.every((d) => d.startsWith('attestation: '))) {
    if (differences.some((d) => WRONG_KEY.test(d)))
      return 'NOT VERIFIED: the signature does not match the given key (the attestation was signed with another key, or changed after signing); the bundle itself holds';
    return 'NOT VERIFIED: the bundle itself holds, but its attestation does not (above)';
  }
  const n = differences.length;
  return `NOT VERIFIED: ${n} difference${n === 1 ? '' : 's'} between the bundle and what this suite finds in it`;
}

/**
 * The lines verify prints for a result, and its exit code: 0 verified, 1 a difference, 2 not verifiable here.
 * `signed`: verify was given a key, and VERIFIED then says the attestation holds too.
 */
export function verifyOutput(result: Verification, anyway: boolean, signed = false): { lines: string[]; exitCode: number } {
  const { manifest } = result;
  const lines = [
    `Bundle of ${manifest?.target.name} (${manifest?.target.baseUrl}), made ${manifest?.createdAt} by ${manifest?.suite.name} ${manifest?.suite.version}, contracts ${manifest?.suite.contractsHash}`,
  ];
  // The version the verdict holds for, and whether it was read from the target or stated.
  if (manifest?.product) lines.push(`  product: ${productText(manifest.product)}`);
  // A bundle a replay wrote holds another bundle's exchanges: said at once, so that none takes it for a run's own.
  if (manifest?.replayOf) lines.push(`  a replay of the evidence bundle ${manifest.replayOf}: its exchanges are that bundle's, asked of no target by this run`);
  const done = (exitCode: number) => ({ lines: lines.map(printable), exitCode });
  if (result.refused) {
    lines.push(`${anyway ? 'judged anyway' : 'refused'}: ${result.refused}`);
    if (!anyway) {
      for (const d of result.differences) lines.push(`  difference  ${d}`);
      lines.push('  verify it with the suite that made it, or judge it again with this one: --anyway');
      return done(2);
    }
  }
  if (result.attestation && !signed)
    lines.push(`  an attestation lies beside the bundle, not checked: ${result.attestation.file}; give --key <public key> to check its signature`);
  if (result.leftOut.length > 0) lines.push(`  ${result.leftOut.length} clause(s) were not judged in the run, and are left out here too`);
  // A bundle made before bundles carried the document verifies all the same: nothing of it is missing that it once held.
  if (result.document === undefined)
    lines.push(
      '  the bundle carries no copy of the document its run was judged against (bundles made before they did): diff cannot name the rows a new text changed',
    );
  for (const d of result.differences) lines.push(`  difference  ${d}`);
  if (result.differences.length > 0) {
    lines.push(notVerified(result.differences));
    return done(1);
  }
  const rejudged = result.rejudged!;
  // What the verdict claims, and the known deviations it rests on, said in the line a reader takes at its word.
  const deviations = rejudged.clauses.filter((c) => c.status === 'known-deviation').map((c) => c.id);
  const resting = deviations.length > 0 ? `, resting on ${deviations.length} known deviation(s): ${deviations.join(', ')}` : '';
  const attested = signed
    ? `, the attestation ${result.attestation?.file} is signed by the given key and says ${result.attestation?.result} of this bundle as its report does,`
    : '';
  lines.push(
    `VERIFIED: every digest holds${attested} and every clause judged again from the exchanges has the status the report gives it; verdict ${headline(rejudged)} for ${claimText(rejudged.claim)}${resting}`,
  );
  return done(0);
}
