import { type RowChange, rowChangeText } from '../harness/document/document-changes.ts';
import { visible } from '../harness/files/visible.ts';
import { markdownCode, markdownText } from './escape.ts';
import type { ChangeKind, ClauseChange } from './change.ts';
import type { RunDiff } from './diff.ts';

// A diff as a person reads it: in the terminal, and as Markdown fit for a pull-request comment. Pure functions.

/** Each kind in words, in the order a reader wants them: what got worse first. */
export const KINDS: [ChangeKind, string][] = [
  ['regressed', 'regressed'],
  ['deviation-ended', 'failing again, no longer a known deviation'],
  ['clause-removed', 'no longer in the catalogue'],
  ['no-longer-exercised', 'no longer exercised'],
  ['evidence-changed', 'still failing, with other evidence'],
  ['status-changed', 'otherwise changed'],
  ['observation-changed', 'observed otherwise'],
  ['changed-by-document', 'changed by the document'],
  ['deviation-added', 'failing, now a known deviation'],
  ['newly-exercised', 'newly exercised'],
  ['clause-added', 'new in the catalogue'],
  ['fixed', 'fixed'],
];

function headline(diff: RunDiff): string {
  const changed = diff.changes.length;
  const worse = diff.regressions === 0 ? 'nothing regressed' : `${diff.regressions} regressed`;
  return `Conformance diff: ${worse}; ${changed} clause${changed === 1 ? '' : 's'} changed, ${diff.unchanged} unchanged`;
}

export function changeText(c: ClauseChange, several: boolean): string {
  const where = several ? `${c.target}: ` : '';
  const statuses = `${c.from ?? 'absent'} → ${c.to ?? 'absent'}`;
  return `${where}${c.id} (${c.level}, ${statuses})${c.why ? `: ${c.why}` : ''}`;
}

/** A target whose product version differs between the runs, in words. */
const versionLine = (v: NonNullable<RunDiff['productVersions']>[number], several: boolean) =>
  `the product's version${several ? ` of ${v.target}` : ''}: ${v.old ?? 'not known'} then ${v.new ?? 'not known'}; a change may be the new version's`;

/** A row the new text of the document changed, and the clauses that rest on it. */
const rowLine = (row: RowChange) => `${rowChangeText(row)}${row.clauses.length > 0 ? `; touches ${row.clauses.join(', ')}` : '; no clause judges it'}`;

// As diffRuns pairs them: a run of one target against a run of one, whatever their names; otherwise by name.
const severalTargets = (diff: RunDiff) => diff.old.verdicts.length > 1 || diff.new.verdicts.length > 1;

/** The lines of the terminal's diff. */
export function diffText(diff: RunDiff): string[] {
  const several = severalTargets(diff);
  const lines = [headline(diff), `  old: ${diff.old.source}`, `  new: ${diff.new.source}`];
  if (diff.otherTarget) lines.push(`  warning: ${diff.otherTarget}`);
  for (const line of diff.judgeChanged) lines.push(`  another judge, ${line}: a change may be the judge's, not the target's`);
  for (const v of diff.productVersions ?? []) lines.push(`  ${versionLine(v, several)}`);
  for (const row of diff.documentRows ?? []) lines.push(`    row ${rowLine(row)}`);
  // One target's verdict is always shown; of several, those that changed.
  for (const before of diff.old.verdicts) {
    const after = several ? diff.new.verdicts.find((v) => v.target === before.target) : diff.new.verdicts[0];
    if (after && (!several || after.verdict !== before.verdict))
      lines.push(`  verdict${several ? ` of ${after.target}` : ''}: ${before.verdict} → ${after.verdict}`);
  }
  for (const u of diff.unpaired) lines.push(`  ${u.target}: only in the ${u.in} run, not compared`);
  for (const [kind, words] of KINDS) {
    const of = diff.changes.filter((c) => c.kind === kind);
    if (of.length === 0) continue;
    lines.push(`${words} (${of.length}):`);
    for (const c of of) lines.push(`  ${changeText(c, several)}`);
  }
  // What a report says came from a target: control characters and escape sequences are shown, never acted on.
  return lines.map((line) => visible(line));
}

/** The diff as Markdown, for a pull-request comment or a job summary. */
export function diffMarkdown(diff: RunDiff): string {
  const several = severalTargets(diff);
  const out = [`### ${markdownText(headline(diff))}`, '', `Old: ${markdownCode(diff.old.source)} · new: ${markdownCode(diff.new.source)}`, ''];
  if (diff.otherTarget) out.push(`> **Warning:** ${markdownText(diff.otherTarget)}.`, '');
  for (const line of diff.judgeChanged) out.push(`> Another judge, ${markdownText(line)}: a change may be the judge's, not the target's.`, '');
  for (const v of diff.productVersions ?? []) out.push(`> ${markdownText(versionLine(v, several))}.`, '');
  for (const row of diff.documentRows ?? []) out.push(`- row ${markdownText(rowLine(row))}`);
  if ((diff.documentRows ?? []).length > 0) out.push('');
  for (const u of diff.unpaired) out.push(`- ${markdownText(u.target)}: only in the ${u.in} run, not compared`);
  if (diff.unpaired.length > 0) out.push('');
  if (diff.changes.length === 0) return `${out.join('\n')}No clause changed.\n`;
  out.push(`| Change | ${several ? 'Target | ' : ''}Clause | Old | New | Why |`, `|---|${several ? '---|' : ''}---|---|---|---|`);
  for (const [kind, words] of KINDS)
    for (const c of diff.changes.filter((x) => x.kind === kind))
      out.push(
        `| ${words} | ${several ? `${markdownText(c.target)} | ` : ''}${markdownCode(c.id, true)} | ${c.from ?? 'absent'} | ${c.to ?? 'absent'} | ${markdownText(c.why ?? '')} |`,
      );
  return `${out.join('\n')}\n`;
}
