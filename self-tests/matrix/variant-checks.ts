import type { Clause } from '../../harness/contracts/catalogue.ts';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { respond, type ReferenceRequest, type ReferenceResponse } from '../../reference-server/respond.ts';
import type { Variant } from '../../reference-server/server.ts';
import type { Fault, ValidVariant } from '../../reference-server/variants/index.ts';

/** What the matrix is made of: the catalogue and both kinds of variant. */
export interface MatrixInput {
  clauses: Clause[];
  faults: Fault[];
  valid: ValidVariant[];
}

export const mustClauses = (clauses: Clause[]) => clauses.filter((c) => c.level === 'MUST');

/** MUST clauses no fault breaks: checks nothing proves able to fail. */
export function unprovenClauses(clauses: Clause[], faults: Fault[]): string[] {
  const broken = new Set(faults.flatMap((f) => f.breaks));
  return mustClauses(clauses)
    .map((c) => c.id)
    .filter((id) => !broken.has(id));
}

/** Mistakes in the variant data itself, one line each. */
export function variantProblems({ clauses, faults, valid }: MatrixInput): string[] {
  const must = new Set(mustClauses(clauses).map((c) => c.id));
  const problems: string[] = [];
  const names = [...faults, ...valid].map((v) => v.name);
  for (const name of new Set(names.filter((n, i) => names.indexOf(n) !== i))) problems.push(`${name}: the name is used twice`);
  for (const v of [...faults, ...valid]) {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(v.name)) problems.push(`${v.name}: a name must be lower-case words joined by "-", as it is served under /variants/<name>`);
    if (v.description.trim() === '' || /\n/.test(v.description)) problems.push(`${v.name}: the description must be one line`);
  }
  for (const f of faults) {
    if (f.breaks.length === 0) problems.push(`${f.name}: a fault must break at least one clause`);
    for (const id of [...f.breaks, ...(f.errors ?? [])]) if (!must.has(id)) problems.push(`${f.name}: ${id} is not a MUST clause of contracts/clauses.yaml`);
    for (const id of f.breaks.filter((b) => f.errors?.includes(b))) problems.push(`${f.name}: ${id} cannot both fail and be errored`);
  }
  for (const v of valid) {
    for (const id of v.notExercised ?? []) if (!must.has(id)) problems.push(`${v.name}: ${id} is not a MUST clause of contracts/clauses.yaml`);
  }
  return problems;
}

const TOKEN_PATH = '/api/admin/invite-link/tokens/';
const CREDENTIALS = [REFERENCE_FIXTURES.adminToken, REFERENCE_FIXTURES.forbiddenToken, REFERENCE_FIXTURES.viewerToken, 'not-a-token', undefined];
const PATHS = [...REFERENCE_FIXTURES.signupTokens, 'no-such-secret'].map((s) => TOKEN_PATH + s);
const QUERIES = ['', 'archived=true', 'archived=false'];

/** The requests the suite sends, and more: every credential on every path. */
function suiteRequests(now: number): ReferenceRequest[] {
  const targets = [...PATHS.map((path) => ({ path, query: '' })), ...QUERIES.map((query) => ({ path: '/api/admin/projects', query }))];
  const request = (authorization: string | undefined, path: string, query: string): ReferenceRequest => ({
    method: 'GET',
    path,
    query: new URLSearchParams(query),
    authorization,
    origin: 'http://reference.invalid',
    now,
  });
  return CREDENTIALS.flatMap((authorization) => targets.map(({ path, query }) => request(authorization, path, query)));
}

// Error ids are random per answer; everything else is a function of the request.
const comparable = (response: ReferenceResponse) =>
  JSON.stringify(response, (key, value) => (key === 'id' && typeof value === 'string' && value.length === 36 ? undefined : value));

/** How many of the suite's requests the variant answers differently from the reference: a variant that changes nothing proves nothing. */
export function changedAnswers(variant: Variant, now = Date.now()): number {
  return suiteRequests(now).filter((request) => comparable(variant.transform(request, () => respond(request))) !== comparable(respond(request))).length;
}
