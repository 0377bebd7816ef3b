import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { diffRuns, type DocumentComparison, type RunDiff } from '../../reporters/diff.ts';
import { diffMarkdown, diffText } from '../../reporters/diff-output.ts';
import { compareTexts, DocumentTextError } from '../../readers/document-texts.ts';
import { type RowChange, rowChangeText } from '../../harness/document/document-changes.ts';
import { documentText, specDocument } from '../../harness/contracts/document.ts';
import { check } from '../../harness/files/checked.ts';
import type { ClauseResult, ClauseStatus, ConformanceReport } from '../../reporters/conformance-result.ts';

// Issue 31, point 3: when two runs were judged by two texts of the document, a clause whose change the rows the
// new text changed account for is "changed-by-document", not "regressed", and does not fail the diff. The kinds,
// and where the texts are taken from, are data; a run of a copy of the suite with an edited document proves the
// wiring (diff-by-document-runs.test.ts).

const [OLD_TEXT, NEW_TEXT, THIRD_TEXT] = ['a', 'b', 'c'].map((c) => c.repeat(64));
const ID = 'projects.project.required';

/** A violation of the projects list at one pointer, worded as the judge words a schema error. */
const violation = (pointer: string, required = 'a value of type number') => ({
  pointer,
  received: 'absent',
  required,
  request: { method: 'GET', path: '/api/admin/projects', status: 200 },
});

const clause = (status: ClauseStatus, violations: ReturnType<typeof violation>[] = [], violationsCut = 0, id = ID): ClauseResult =>
  ({ id, section: '5', level: 'MUST', title: 'a title', status, ...(violations.length > 0 && { evidence: { violations, violationsCut } }) }) as ClauseResult;

const row = (field: string, clauses = [ID], aspect: RowChange['aspect'] = 'required'): RowChange => ({
  table: '2.5 Project object',
  row: field,
  field,
  aspect,
  old: 'no',
  new: 'yes',
  clauses,
});

const FEATURE_COUNT = violation('/projects/0/featureCount', 'the field "featureCount" to be present');
const NAME = violation('/projects/0/name', 'the field "name" to be present');

const report = (document: string, c: ClauseResult) =>
  ({
    target: { name: 'staging' },
    suite: { version: '1.0.0', contractsHash: 'c'.repeat(16) },
    document: { sha256: document },
    verdict: c.status === 'failed' ? 'fail' : 'pass',
    clauses: [c],
  }) as ConformanceReport;

const compared = (rows: RowChange[]): DocumentComparison => ({ old: OLD_TEXT, new: NEW_TEXT, rows });

function diffOf(before: ClauseResult, after: ClauseResult, documents: DocumentComparison | undefined, newText = NEW_TEXT): RunDiff {
  return diffRuns({ source: 'old', reports: [report(OLD_TEXT, before)] }, { source: 'new', reports: [report(newText, after)] }, documents);
}

/** The judge's words for the violations and the row change the cases below are made of. */
const FEATURE_COUNT_ABSENT =
  'GET /api/admin/projects → 200: at /projects/0/featureCount: received absent; the document requires the field "featureCount" to be present';
const NAME_ABSENT = 'GET /api/admin/projects → 200: at /projects/0/name: received absent; the document requires the field "name" to be present';
const REQUIRED_NOW = 'the document changed 2.5 Project object, featureCount: required no → yes';
/** The row change named where the clause rests on it, yet the change does not account for the clause's. */
const requiredNowBut = (unaccounted: string) => `${REQUIRED_NOW}, which this clause rests on, but ${unaccounted}`;

const KINDS: { description: string; before: ClauseResult; after: ClauseResult; rows: RowChange[]; kind: string; why: string; newText?: string }[] = [
  {
    description: 'a clause that fails where a row made a field required',
    before: clause('passed'),
    after: clause('failed', [FEATURE_COUNT]),
    rows: [row('featureCount')],
    kind: 'changed-by-document',
    why: `${REQUIRED_NOW}; ${FEATURE_COUNT_ABSENT}`,
  },
  {
    description: 'a clause that fails at a field no changed row names',
    before: clause('passed'),
    after: clause('failed', [NAME]),
    rows: [row('featureCount')],
    kind: 'regressed',
    why: `${NAME_ABSENT}; ${requiredNowBut('its violation at /projects/0/name lies at none of their fields')}`,
  },
  {
    description: 'a clause that fails at a changed row and at another field',
    before: clause('passed'),
    after: clause('failed', [FEATURE_COUNT, NAME]),
    rows: [row('featureCount')],
    kind: 'regressed',
    why: `${FEATURE_COUNT_ABSENT}; ${requiredNowBut('its violation at /projects/0/name lies at none of their fields')}`,
  },
  {
    description: 'a clause that fails at a changed row, with violations the report did not keep',
    before: clause('passed'),
    after: clause('failed', [FEATURE_COUNT], 3),
    rows: [row('featureCount')],
    kind: 'regressed',
    why: `${FEATURE_COUNT_ABSENT}; ${requiredNowBut('3 of its violations were not kept in the report')}`,
  },
  {
    description: 'a clause that fails at a field whose changed row touches other clauses only',
    before: clause('passed'),
    after: clause('failed', [FEATURE_COUNT]),
    rows: [row('featureCount', ['projects.project.types'], 'type')],
    kind: 'regressed',
    why: FEATURE_COUNT_ABSENT,
  },
  {
    description: "a field whose name is part of the changed field's only",
    before: clause('passed'),
    after: clause('failed', [violation('/projects/0/projectId', 'the field "projectId" to be present')]),
    rows: [row('id')],
    kind: 'regressed',
    why: 'GET /api/admin/projects → 200: at /projects/0/projectId: received absent; the document requires the field "projectId" to be present; the document changed 2.5 Project object, id: required no → yes, which this clause rests on, but its violation at /projects/0/projectId lies at none of their fields',
  },
  {
    description: 'a union whose violation is the object, named by what it requires',
    before: clause('passed'),
    after: clause('failed', [violation('/projects/0/owners/0', 'an ownerType of "user", "group" or "system"')]),
    rows: [{ ...row('ownerType'), table: '2.6 Owner object', aspect: 'enum', old: 'group, system, team, user', new: 'group, system, user' }],
    kind: 'changed-by-document',
    why: 'the document changed 2.6 Owner object, ownerType: enum group, system, team, user → group, system, user; GET /api/admin/projects → 200: at /projects/0/owners/0: received absent; the document requires an ownerType of "user", "group" or "system"',
  },
  {
    description: 'a clause that passes where a row made a field optional',
    before: clause('failed', [FEATURE_COUNT]),
    after: clause('passed'),
    rows: [{ ...row('featureCount'), old: 'yes', new: 'no' }],
    kind: 'changed-by-document',
    // What the old run found, as every fixed clause names it.
    why: 'the document changed 2.5 Project object, featureCount: required yes → no; no longer: GET /api/admin/projects → 200: at /projects/0/featureCount: received absent; the document requires the field "featureCount" to be present',
  },
  {
    description: 'a clause failing with other evidence, at a changed row',
    before: clause('failed', [NAME]),
    after: clause('failed', [FEATURE_COUNT]),
    rows: [row('featureCount')],
    kind: 'changed-by-document',
    why: `${REQUIRED_NOW}; ${FEATURE_COUNT_ABSENT}`,
  },
  {
    description: 'a known deviation that no longer applies, at a changed row: the deviation ended, not the document',
    before: clause('known-deviation', [FEATURE_COUNT]),
    after: clause('failed', [FEATURE_COUNT]),
    rows: [row('featureCount')],
    kind: 'deviation-ended',
    why: FEATURE_COUNT_ABSENT,
  },
  {
    description: 'a target judged by a third text, which the rows compared are not about',
    before: clause('passed'),
    after: clause('failed', [FEATURE_COUNT]),
    rows: [row('featureCount')],
    newText: THIRD_TEXT,
    kind: 'regressed',
    why: FEATURE_COUNT_ABSENT,
  },
];

for (const c of KINDS)
  test(`${c.description}: ${c.kind}`, () => {
    const diff = diffOf(c.before, c.after, c.newText ? { ...compared(c.rows), new: NEW_TEXT } : compared(c.rows), c.newText);
    expect(diff.changes.map((x) => [x.kind, x.why])).toEqual([[c.kind, c.why]]);
    expect(diff.regressions).toBe(c.kind === 'regressed' || c.kind === 'deviation-ended' ? 1 : 0);
  });

test('where the texts are not at hand the clause regressed, and the judge says in one line why its rows were not compared', () => {
  const unavailable =
    "the new run's text is not at hand (a report names it only by its hash): give --new-document FILE, or diff evidence bundles, which carry it";
  const diff = diffOf(clause('passed'), clause('failed', [FEATURE_COUNT]), { unavailable });
  expect(diff.changes.map((c) => c.kind)).toEqual(['regressed']);
  expect(diff.judgeChanged).toEqual([`the document's text: sha256 ${'a'.repeat(12)} then ${'b'.repeat(12)}; its rows cannot be compared: ${unavailable}`]);
  expect(diff.documentRows).toBeUndefined();
  expect(diffText(diff)).toContain(
    `  another judge, the document's text: sha256 ${'a'.repeat(12)} then ${'b'.repeat(12)}; its rows cannot be compared: ${unavailable}: a change may be the judge's, not the target's`,
  );
  expect(diffOf(clause('passed'), clause('passed'), undefined).judgeChanged).toEqual([
    `the document's text: sha256 ${'a'.repeat(12)} then ${'b'.repeat(12)}; its rows cannot be compared, as neither text is at hand`,
  ]);
});

test('the rows compared are named in every output, and the JSON matches its schema', () => {
  const rows = [row('featureCount'), { ...row('color', []), aspect: 'added' as const, old: 'no row', new: 'type string, required no, nullable no' }];
  const diff = diffOf(clause('passed'), clause('failed', [FEATURE_COUNT]), compared(rows));
  expect(diff.judgeChanged).toEqual([`the document's text: sha256 ${'a'.repeat(12)} then ${'b'.repeat(12)}; 2 changes to its rows`]);
  const schema = new URL('../../commands/diff.schema.json', `file://${__filename}`);
  const json = JSON.parse(JSON.stringify(diff));
  expect(check(schema, json)).toEqual({ ok: true, value: json });
  const text = diffText(diff);
  expect(text[0]).toBe('Conformance diff: nothing regressed; 1 clause changed, 0 unchanged');
  expect(text).toContain('    row 2.5 Project object, featureCount: required no → yes; touches projects.project.required');
  expect(text).toContain('    row 2.5 Project object, color: added (type string, required no, nullable no); no clause judges it');
  expect(text).toContain('changed by the document (1):');
  expect(diffMarkdown(diff)).toContain('- row 2.5 Project object, featureCount: required no → yes; touches projects.project.required');
  expect(diffMarkdown(diff)).toContain('| changed by the document | `projects.project.required` | passed | failed |');
  expect(diffOf(clause('passed'), clause('passed'), compared([])).judgeChanged).toEqual([
    `the document's text: sha256 ${'a'.repeat(12)} then ${'b'.repeat(12)}; none of its rows changed`,
  ]);
});

const SHIPPED = specDocument().sha256;
const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');
const EDITED = documentText().replace('| featureCount | number | no | no |', '| featureCount | number | yes | no |');

test('the texts are taken where their bytes have the hash the run names: a bundle, a file given, the shipped copy', () => {
  expect(compareTexts({ side: 'old', sha256: SHIPPED }, { side: 'new', sha256: SHIPPED })).toBeUndefined();
  const fromBundle = compareTexts({ side: 'old', sha256: SHIPPED }, { side: 'new', sha256: hashOf(EDITED), bundled: Buffer.from(EDITED) });
  expect(fromBundle && 'rows' in fromBundle && fromBundle.rows.map(rowChangeText)).toEqual(['2.5 Project object, featureCount: required no → yes']);
  expect(compareTexts({ side: 'old', sha256: OLD_TEXT, bundled: null }, { side: 'new', sha256: SHIPPED })).toEqual({
    unavailable: "the old run's bundle carries no copy of its text (made before bundles did): give --old-document FILE",
  });
  expect(compareTexts({ side: 'old', sha256: OLD_TEXT }, { side: 'new', sha256: NEW_TEXT })).toEqual({
    unavailable:
      "the old run's text is not at hand (a report names it only by its hash): give --old-document FILE, or diff evidence bundles, which carry it; " +
      "the new run's text is not at hand (a report names it only by its hash): give --new-document FILE, or diff evidence bundles, which carry it",
  });
  expect(compareTexts({ side: 'old', sha256: hashOf('# Notes'), bundled: Buffer.from('# Notes') }, { side: 'new', sha256: SHIPPED })).toEqual({
    unavailable: "the old run's text is not the document as this suite reads it: it has no section 2 with tables of fields",
  });
});

test("a bundle's copy that is not the text its report names is refused, never compared", () => {
  expect(() => compareTexts({ side: 'old', sha256: OLD_TEXT, bundled: Buffer.from(EDITED) }, { side: 'new', sha256: SHIPPED })).toThrow(
    new DocumentTextError("the old run's bundle carries a text of the document other than the one its report names"),
  );
});
