import { loadSchemas } from './contracts.ts';
import { own } from './fields.ts';
import { shapeOf, type Resolve, type Shape } from './schema-shape.ts';
import { isNode, type Node } from './validator.ts';

// Where a target's own OpenAPI description of one of the two operations says something other than the
// document: reported as an observation, never judged (the document says nothing of descriptions).

export type DriftKind = 'missing' | 'added' | 'required' | 'nullable' | 'type' | 'format' | 'enum' | 'range' | 'statuses' | 'content';

export interface Drift {
  /** Where: a status, then a field path such as `users[].isAPI`. */
  at: string;
  kind: DriftKind;
  document: string;
  description: string;
}

/** The two operations of section 4: the path template, the statuses listed and the contract of each 200. */
export const OPERATIONS = {
  'signup-token': { path: '/api/admin/invite-link/tokens/{token}', contract: 'public-signup-token.schema.json' },
  projects: { path: '/api/admin/projects', contract: 'projects.schema.json' },
} as const;

const DOCUMENT_STATUSES = ['200', '401', '403'];
const ERROR_CONTRACT = 'error.schema.json';

/** A key of a parsed description, when it holds an object: a description is the target's, and may hold anything. */
const child = (node: unknown, key: string): Node | undefined => {
  const value = isNode(node) ? own(node, key) : undefined;
  return isNode(value) ? value : undefined;
};

/** Resolves the contracts' references by file name (`user.schema.json`). */
function contractResolver(): Resolve {
  const schemas = loadSchemas();
  return (ref) => {
    const schema = schemas.get(ref.replace(/^.*\//, ''));
    return isNode(schema) ? schema : undefined;
  };
}

/** Resolves a description's `#/...` pointers within it. */
function pointerResolver(root: unknown): Resolve {
  return (ref) => {
    if (!ref.startsWith('#/')) return undefined;
    let node: unknown = root;
    for (const part of ref.slice(2).split('/')) node = child(node, part.replace(/~1/g, '/').replace(/~0/g, '~'));
    return isNode(node) ? node : undefined;
  };
}

const say = (value: unknown) =>
  value === undefined || (Array.isArray(value) && value.length === 0) ? 'nothing' : Array.isArray(value) ? value.join(', ') : String(value);
const range = (b: Shape['bounds']) => (b.minimum === undefined && b.maximum === undefined ? undefined : `${b.minimum ?? ''}..${b.maximum ?? ''}`);

/** Every difference between the document's shape and the description's, field by field. */
export function compareShapes(document: Shape, described: Shape, at: string, out: Drift[]): Drift[] {
  const differ = (kind: DriftKind, ours: unknown, theirs: unknown) => {
    if (say(ours) !== say(theirs)) out.push({ at: at || '(body)', kind, document: say(ours), description: say(theirs) });
  };
  if (described.types.length > 0 || document.types.length === 0) differ('type', document.types, described.types);
  differ('nullable', document.nullable ? 'nullable' : 'not nullable', described.nullable ? 'nullable' : 'not nullable');
  differ('format', document.format, described.format);
  differ('enum', document.enum, described.enum);
  differ('range', range(document.bounds), range(described.bounds));
  differ(
    'range',
    document.bounds.minItems === undefined ? undefined : `at least ${document.bounds.minItems} item(s)`,
    described.bounds.minItems === undefined ? undefined : `at least ${described.bounds.minItems} item(s)`,
  );
  if (document.items && described.items) compareShapes(document.items, described.items, `${at}[]`, out);
  if (document.fields && described.fields) compareFields(document.fields, described.fields, at, out);
  return out;
}

function compareFields(document: NonNullable<Shape['fields']>, described: NonNullable<Shape['fields']>, at: string, out: Drift[]): void {
  const path = (name: string) => (at ? `${at}.${name}` : name);
  for (const [name, field] of document) {
    const theirs = described.get(name);
    if (!theirs) out.push({ at: path(name), kind: 'missing', document: field.required ? 'required' : 'optional', description: 'not described' });
    else {
      if (field.required !== theirs.required)
        out.push({
          at: path(name),
          kind: 'required',
          document: field.required ? 'required' : 'optional',
          description: theirs.required ? 'required' : 'optional',
        });
      compareShapes(field.shape, theirs.shape, path(name), out);
    }
  }
  for (const [name, theirs] of described)
    if (!document.has(name))
      out.push({ at: path(name), kind: 'added', document: 'not in the document', description: theirs.required ? 'required' : 'optional' });
}

/** The description's operation for a path template, whatever it names the path parameter. */
function operationOf(description: unknown, template: string): Node | undefined {
  const normal = (p: string) => p.replace(/\{[^}]*\}/g, '{}');
  const paths = child(description, 'paths') ?? {};
  const key = Object.keys(paths).find((p) => normal(p) === normal(template));
  return key === undefined ? undefined : child(child(paths, key), 'get');
}

/** What the description says of one operation that the document says otherwise. */
export function operationDrift(description: unknown, operation: keyof typeof OPERATIONS): { described: boolean; differences: Drift[] } {
  const { path, contract } = OPERATIONS[operation];
  const op = operationOf(description, path);
  if (!op) return { described: false, differences: [] };
  const responses = child(op, 'responses') ?? {};
  const listed = Object.keys(responses).sort();
  const out: Drift[] = [];
  const missing = DOCUMENT_STATUSES.filter((s) => !listed.includes(s));
  const added = listed.filter((s) => !DOCUMENT_STATUSES.includes(s));
  if (missing.length + added.length > 0)
    out.push({ at: 'statuses', kind: 'statuses', document: DOCUMENT_STATUSES.join(', '), description: listed.join(', ') || 'nothing' });
  const ours = contractResolver();
  const theirs = pointerResolver(description);
  for (const status of DOCUMENT_STATUSES.filter((s) => listed.includes(s))) {
    const schema = own(child(child(child(responses, status), 'content'), 'application/json'), 'schema');
    const against = status === '200' ? contract : ERROR_CONTRACT;
    if (schema === undefined)
      out.push({
        at: status,
        kind: 'content',
        document: `application/json, ${status === '200' ? 'the resource' : 'the error object'}`,
        description: 'no application/json schema',
      });
    else compareShapes(shapeOf(ours(against), ours), shapeOf(schema, theirs), '', []).forEach((d) => out.push({ ...d, at: `${status} ${d.at}` }));
  }
  return { described: true, differences: out };
}
