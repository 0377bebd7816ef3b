/**
 * A field of a body as received: the object's own property, or undefined for anything else (a value that
 * is no object, an array, a key only the prototype has). Checks read target data through it, never by
 * casting it to a shape it may not have.
 */
export function field(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key)) return undefined;
  return (value as Record<string, unknown>)[key];
}
