import { isNode } from '../contracts/validator.ts';
import { own } from '../contracts/fields.ts';
import type { ErrorObject } from 'ajv';
import type { Exchange } from '../transport/exchange.ts';
import type { JsonBody } from '../json/json-readings.ts';
import { describeReceived, escapePointer, valueAt } from './received.ts';
import { branchFor, clauseFor, clausesOfTree, placeOfSchemaPath, schemaTree, type Aspect, type SchemaPlace } from './schema-tree.ts';
import { walkBody, type BodyWalk } from './schema-walk.ts';
import { ClauseCheck } from './verdict.ts';
import { schemaRequirement, type Requirement } from './requirement.ts';
import { validators, type SchemaName } from '../contracts/validator.ts';

/** A body as the judge reads it, beside the exchange that brought it. */
export interface ReadBody {
  exchange: Exchange;
  body: JsonBody;
}

const ASPECT_OF_KEYWORD: Record<string, Aspect> = {
  required: 'required',
  format: 'format',
  minimum: 'range',
  maximum: 'range',
  minItems: 'minItems',
  discriminator: 'discriminator',
};

// A null where the document allows none is a nullability fault, whichever keyword noticed it (type, enum).
function aspectOf(keyword: string, value: unknown): Aspect {
  return ASPECT_OF_KEYWORD[keyword] ?? (value === null ? 'null' : 'type');
}

function pointerOf(error: ErrorObject): string {
  return error.keyword === 'required' ? `${error.instancePath}/${escapePointer(String(error.params.missingProperty))}` : error.instancePath;
}

interface Finding {
  clause: string;
  pointer: string;
  /** Worded only for a violation that is kept: a list with a hundred thousand broken entries keeps fifty. */
  describe(): { received: string; requirement: Requirement };
}

function findingOf(tree: SchemaPlace, error: ErrorObject, reading: unknown, body: JsonBody): Finding {
  const { place, keyword } = placeOfSchemaPath(tree, error.schemaPath);
  const clause = clauseFor(place, keyword, aspectOf(keyword, valueAt(reading, error.instancePath))) ?? place.clauseOf.type;
  if (clause === undefined) throw new Error(`the contract names no clause for ${error.schemaPath}`);
  const pointer = pointerOf(error);
  return {
    clause,
    pointer,
    describe: () => ({
      received: describeReceived(valueAt(reading, pointer), pointer, body.literals),
      requirement: { kind: 'schema', ...schemaRequirement(error.keyword, error.params) },
    }),
  };
}

/** The place of the contract a pointer into the body leads to, following the body's own union kinds. */
function placeAt(tree: SchemaPlace, data: unknown, pointer: string): SchemaPlace | undefined {
  let [place, node]: [SchemaPlace | undefined, unknown] = [tree, data];
  for (const raw of pointer.split('/').slice(1)) {
    if (place === undefined || node === null || typeof node !== 'object') return undefined;
    if (place.branches.length > 0 && isNode(node)) place = branchFor(place, node);
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    place = Array.isArray(node) ? place?.items : place?.properties.get(key);
    node = own(node, key);
  }
  return place;
}

/**
 * A number the target wrote as a fraction that no double can hold as one (9007199254740993.5) reads as a
 * whole number; the literal decides whether an integer was sent.
 */
function literalFindings(tree: SchemaPlace, body: JsonBody): Finding[] {
  return [...body.literals].flatMap(([pointer, literal]) => {
    const place = literal.integral ? undefined : placeAt(tree, body.value, pointer);
    const clause = place?.integerOnly ? place.valueClauseOf.type : undefined;
    if (clause === undefined) return [];
    return [{ clause, pointer, describe: () => ({ received: literal.text, requirement: { kind: 'schema', keyword: 'integer', params: {} } }) }];
  });
}

const walks = new WeakMap<JsonBody, BodyWalk>();
const found = new WeakMap<JsonBody, Map<SchemaName, Finding[]>>();

/** The walk of a body beside its contract, made once however many clauses ask. */
export function walkOf(name: SchemaName, body: JsonBody): BodyWalk {
  let walk = walks.get(body);
  if (!walk) walks.set(body, (walk = walkBody(schemaTree(name), body.value)));
  return walk;
}

/** Every clause whose errors the contract of this object names. */
export function schemaClauses(name: SchemaName): string[] {
  return [...clausesOfTree(schemaTree(name))];
}

/** A body's findings under one contract, each clause and pointer once, made once for every answer that sent it. */
function findingsOf(name: SchemaName, tree: SchemaPlace, body: JsonBody): Finding[] {
  const byName = found.get(body) ?? new Map<SchemaName, Finding[]>();
  found.set(body, byName);
  let findings = byName.get(name);
  if (findings) return findings;
  const errors = [body.value, ...body.otherReadings].flatMap((reading) =>
    validators()
      .validate(name, reading)
      .map((e) => findingOf(tree, e, reading, body)),
  );
  const reported = new Set<string>();
  findings = [...errors, ...literalFindings(tree, body)].filter((finding) => {
    const key = `${finding.clause} ${finding.pointer}`;
    return !reported.has(key) && reported.add(key);
  });
  byName.set(name, findings);
  return findings;
}

/**
 * Validates each distinct body once (and each other reading of a body with repeated keys) and sorts every error
 * into the clause the contract names for it. One value that fails two keywords (a null mode fails type
 * and enum) is one violation.
 */
export function schemaFindings(name: SchemaName, bodies: ReadBody[]): Map<string, ClauseCheck> {
  const tree = schemaTree(name);
  const checks = new Map(schemaClauses(name).map((id) => [id, new ClauseCheck(id)]));
  for (const { exchange, body } of bodies) {
    for (const [clause, n] of walkOf(name, body).looked) checks.get(clause)?.count(n);
    for (const finding of findingsOf(name, tree, body)) {
      const check = checks.get(finding.clause);
      if (check === undefined) throw new Error(`the contract of ${name} names ${finding.clause}, which it does not list`);
      if (check.isFull) check.cut();
      else {
        const { received, requirement } = finding.describe();
        check.violate(exchange, finding.pointer, received, requirement);
      }
    }
  }
  return checks;
}
