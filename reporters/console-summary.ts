import { visible } from '../harness/files/visible.ts';
import { REGRESSIONS } from './change.ts';
import { baselineText, claimText, documentText, headline, productText, replayText, targetText, erroredText, verdictText } from './sections.ts';
import { violationLine } from '../harness/judging/violation-words.ts';
import type { ReportView } from './conformance-result.ts';
import { changeText, KINDS } from './diff-output.ts';
import { gateText } from './gate.ts';
import { claimedClauses } from './claim.ts';

// A terminal obeys escape sequences and line breaks: every quoted string is shown on one line, its hidden
// characters escaped (harness/files/visible.ts), whether it came from the target, a file of the user's or a merged report.
const t = (text: unknown) => visible(String(text ?? ''));

function firstViolation(clause: ReportView['clauses'][number]): string {
  const v = clause.evidence?.violations[0];
  if (!v) return '';
  return `\n      ${t(violationLine(v))}`;
}

const listIds = (ids: string[]) => (ids.length <= 4 ? ids.join(', ') : `${ids.length} clauses: ${ids.slice(0, 3).join(', ')}, …`);

function whyErrored(clause: ReportView['clauses'][number]): string {
  const u = clause.evidence?.unevaluable[0];
  if (u) return t(erroredText(u));
  return t((clause.reason ?? 'unknown').replace(/(^|: )Error: /g, '$1').split('\n')[0]);
}

/** Clauses that errored for one cause (say, a refused admin token) are listed together under it. */
function erroredByReason(report: ReportView): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const c of report.clauses.filter((c) => c.status === 'errored')) {
    const reason = whyErrored(c).replace(/ \/api\/admin\/invite-link\/tokens\/\S+/, ' /api/admin/invite-link/tokens/…');
    groups.set(reason, [...(groups.get(reason) ?? []), c.id]);
  }
  return groups;
}

function consistencyLines(report: ReportView): string[] {
  const c = report.consistency;
  if (!c) return [];
  const latency = Object.entries(c.latencyMs)
    .map(([op, p]) => `${op} p50 ${p.p50} ms, p90 ${p.p90} ms, p99 ${p.p99} ms`)
    .join('; ');
  const head = `  repeat:  ${c.rounds} rounds, ${c.concurrency} at a time: ${c.consistent ? 'every request answered alike' : `${c.inconsistent.length} request(s) answered differently`}; ${latency}`;
  return [
    head,
    ...c.inconsistent.map(
      (i) =>
        `    ${t(i.method)} ${t(i.path)} (${t(i.credential)}): ${Object.entries(i.answers)
          .map(([a, n]) => `${n}× ${t(a)}`)
          .join(', ')}`,
    ),
  ];
}

/** The run against its baseline: the counts, what the judge changed, and each regression with why. */
function baselineLines(report: ReportView): string[] {
  const b = report.baseline;
  if (!b) return [];
  const lines = [`  baseline: ${t(baselineText(b, report.target?.name))}`];
  for (const line of b.judgeChanged) lines.push(`    another judge, ${t(line)}: a change may be the judge's, not the target's`);
  for (const [kind, words] of KINDS.filter(([k]) => REGRESSIONS.includes(k)))
    for (const c of b.changes.filter((x) => x.kind === kind)) lines.push(`    ${words}  ${t(changeText(c, false))}`);
  return lines;
}

/** The closing block of the terminal output: verdict, counts, what failed, where the reports are. */
export function consoleSummary(report: ReportView, files: string[]): string {
  const s = report.summary;
  const gate = gateText(report);
  const lines = [
    '',
    `Conformance of ${t(targetText(report.target))}`,
    `${headline(report)}: ${verdictText(report)}`,
    ...(gate ? [t(gate)] : []),
    `  claim:   ${claimText(report.claim)}`,
    ...(report.replay ? [`  replay:  ${t(replayText(report.replay, report.startedAt))}`] : []),
    `  product: ${t(productText(report.product))}`,
    `  document: ${t(documentText(report.document))}; suite ${t(report.suite.version)}, contracts ${t(report.suite.contractsHash)}`,
    `  MUST:    ${s.must.passed} passed of ${s.must.total}; ${s.must.failed} failed, ${s.must.errored} errored, ${s.must.notExercised} not exercised, ${s.must.knownDeviations} known deviations, ${s.must.notJudged} not judged`,
    `  INFO:    ${s.observed} observed of ${s.total - s.must.total}, never judged; ${s.errored - s.must.errored} errored, ${s.notExercised - s.must.notExercised} not exercised, ${s.notJudged - s.must.notJudged} not judged`,
  ];
  lines.push(...consistencyLines(report), ...baselineLines(report));
  for (const c of report.clauses.filter((c) => c.status === 'failed')) lines.push(`  failed   ${c.id} (${c.section}): ${c.title}${firstViolation(c)}`);
  for (const [reason, ids] of erroredByReason(report)) lines.push(`  errored  ${listIds(ids)}\n      ${reason}`);
  for (const c of report.clauses.filter((c) => c.status === 'known-deviation')) lines.push(`  known deviation  ${c.id}: ${t(c.deviation!.reason)}`);
  for (const c of report.clauses.filter((c) => c.deviation?.state === 'no-longer-needed'))
    lines.push(`  deviation no longer needed  ${c.id}: it passes now; remove it from the deviations file`);
  for (const c of report.clauses.filter((c) => c.deviation?.state === 'expired'))
    lines.push(`  deviation expired  ${c.id} (expired ${c.deviation!.expires}): the failure counts again`);
  const version = report.product?.version;
  for (const d of report.deviationsSetAside ?? [])
    lines.push(
      `  deviation set aside  ${d.clause}: it names versions ${t(d.versions)}, and ${version ? `the product's version ${t(version)} is not in them` : "the product's version is not known (state it, or read it: CONFORMANCE_READ_PRODUCT_VERSION)"}`,
    );
  // What the claim covers is listed; a clause of a profile the run did not claim is counted, its profile named by the claim line.
  const notExercised = report.clauses.filter((c) => c.status === 'not-exercised' && c.level === 'MUST');
  const claimed = new Set(claimedClauses(notExercised, report.claim).map((c) => c.id));
  for (const c of notExercised.filter((c) => claimed.has(c.id))) lines.push(`  not exercised  ${c.id}: ${t(c.reason)}`);
  const outside = notExercised.length - claimed.size;
  if (outside > 0) lines.push(`  not exercised, outside the claim  ${outside} MUST clause${outside === 1 ? '' : 's'} of profiles the run does not claim`);
  const notJudged = report.clauses.filter((c) => c.status === 'not-judged' && c.level === 'MUST').map((c) => c.id);
  if (notJudged.length > 0) lines.push(`  not judged  ${listIds(notJudged)}: ${t(report.clauses.find((c) => c.status === 'not-judged')?.reason)}`);
  lines.push(...files.map((f) => `  report: ${f}`), '');
  return lines.join('\n');
}

/** A fleet's terminal line for one target, whose own block would be one of hundreds: its verdict, what failed, its report. */
export function consoleLine(report: ReportView, reportFile: string): string {
  const failed = report.clauses.filter((c) => c.status === 'failed').map((c) => c.id);
  const errored = report.clauses.filter((c) => c.status === 'errored').map((c) => c.id);
  // A target the run could not judge at all (no answer, a refused token) says why, not every clause it could not judge.
  const stopped = !report.completed && failed.length === 0 && report.errors.length > 0;
  const what = stopped
    ? [t(report.errors[0])]
    : [...(failed.length ? [`failed ${listIds(failed)}`] : []), ...(errored.length ? [`errored ${listIds(errored)}`] : [])];
  return `  ${headline(report)}  ${t(targetText(report.target))}${what.length ? `: ${what.join('; ')}` : ''}  ${reportFile}\n`;
}
