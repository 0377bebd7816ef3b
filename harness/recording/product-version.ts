import type { Product, ProductRead, VersionReader } from '../config/product.ts';
import type { Exchange } from '../transport/exchange.ts';
import { keyOf } from './recording.ts';
import { versionRequest } from './plan.ts';

// The product's version as the target says it, where the settings asked for it: a fact about the product,
// never a verdict. Whatever the answer, the run goes on; a version that could not be read is said, and why.

/** A version as a product writes it: `8.2.0`, `7.4.1-beta.2`, `v6.10.1+build.5`; anything else is not taken. */
const VERSION_TEXT = /^v?\d{1,9}(\.\d{1,9}){0,2}([-+][0-9A-Za-z.+-]{1,40})?$/;

/** What the answer to the version request says, read with the reader's field. */
export function readVersion(reader: VersionReader, exchanges: Exchange[]): ProductRead {
  const request = versionRequest(reader.path);
  const read: ProductRead = { request: `${request.method} ${request.path}`, outsideDocument: true };
  const exchange = exchanges.find((e) => keyOf(e.request) === keyOf(request));
  if (exchange === undefined) return { ...read, problem: 'not sent: the run was stopped first' };
  if (exchange.failure !== undefined) return { ...read, problem: exchange.failure };
  const answered = { ...read, status: exchange.status };
  if (exchange.status !== 200) return { ...answered, problem: `answered ${exchange.status}, not 200` };
  let body: unknown;
  try {
    body = JSON.parse(exchange.bodyText ?? '');
  } catch {
    return { ...answered, problem: 'the answer is not JSON' };
  }
  const value = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[reader.field] : undefined;
  if (typeof value !== 'string') return { ...answered, problem: `the answer has no "${reader.field}" text` };
  if (!VERSION_TEXT.test(value)) return { ...answered, problem: `"${reader.field}" is not a version (such as 8.2.0)` };
  return { ...answered, version: value.replace(/^v/, '') };
}

/**
 * The product as the run knows it: the version read, where one was, in place of the one stated (which is
 * kept beside it, if it differs); otherwise the stated one, marked so. Without a stated name, the reader's.
 */
export function productOfRun(stated: Product | undefined, reader: VersionReader | undefined, exchanges: Exchange[]): Product | undefined {
  const markStated = (p: Product): Product => (p.version === undefined || p.versionFrom !== undefined ? p : { ...p, versionFrom: 'stated' });
  if (reader === undefined) return stated && markStated(stated);
  const read = readVersion(reader, exchanges);
  const base: Product = stated ?? { name: reader.name };
  if (read.version === undefined) return { ...markStated(base), read };
  const differs = stated?.version !== undefined && stated.version !== read.version;
  return { ...base, version: read.version, versionFrom: 'read', read: differs ? { ...read, stated: stated.version } : read };
}
