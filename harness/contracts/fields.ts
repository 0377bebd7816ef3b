/**
 * A field of a body as received: the object's own property, or undefined for anything else (a value that
 * is no object, an array, a key only the prototype has). Checks read target data through it, never by
 * casting it to a shape it may not have.
 */
export function field(value: unknown, key: string): unknown {
  return Array.isArray(value) ? undefined : own(value, key);
}

/** The own property `key` of an object or a list (a list's by index), or undefined: never one of its prototype's. */
export function own(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
  return Reflect.get(value, key);
}
