import { visible } from '../harness/files/visible.ts';
import type { ReportView } from './conformance-result.ts';
import { firstViolationText } from './sections.ts';

// GitHub Actions annotations naming the failed clauses, as workflow commands a run prints to its log: each
// `::error title=…::message` on one line of its own. A target's answer is quoted in the message, so nothing in it
// may end that line or start a command of its own: hidden characters are written as escapes first, then the
// characters a workflow command gives meaning to are percent-encoded as GitHub decodes them.

/** GitHub shows at most 10 error annotations of a step; the rest are named in one notice. */
export const MAX_ANNOTATIONS = 10;

/** A workflow command's message: a line break or a "%" of the text's own stays text. */
export const commandData = (text: string) => visible(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** A workflow command's property value: as a message, and neither "," nor ":" may end it. */
export const commandProperty = (text: string) => commandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

const command = (kind: 'error' | 'notice', title: string, message: string) => `::${kind} title=${commandProperty(title)}::${commandData(message)}`;

/**
 * The annotations of a run's failed clauses, one line each: up to MAX_ANNOTATIONS errors (clause id as the title,
 * with the target's name when the run has several; the clause's sentence and its first violation as the
 * message), then one notice naming the rest. None for a run without a failed clause.
 */
export function annotations(reports: ReportView[]): string[] {
  const several = reports.length > 1;
  const failed = reports.flatMap((r) =>
    r.clauses.filter((c) => c.status === 'failed').map((c) => ({ id: several ? `${r.target?.name ?? ''}: ${c.id}` : c.id, clause: c })),
  );
  const shown = failed
    .slice(0, MAX_ANNOTATIONS)
    .map(({ id, clause }) => command('error', `Conformance: ${id} failed`, `${clause.title}: ${firstViolationText(clause)}`));
  const rest = failed.slice(MAX_ANNOTATIONS);
  if (rest.length === 0) return shown;
  const more = `${rest.length} more failed clause${rest.length === 1 ? '' : 's'}: ${rest.map((f) => f.id).join(', ')}; the job summary and the report say how each failed`;
  return [...shown, command('notice', 'Conformance: more failed clauses', more)];
}
