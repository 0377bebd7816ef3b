import { ConfigError } from '../files/config-error.ts';

// Where the target is: its base URL (the part before /api/admin), and the path below it where it publishes its
// own OpenAPI description. Neither may hold a credential, nor lead to another address.

/** Whether a message may quote a base URL: not when it may hold credentials (user:password@) or a query, where a token may be. */
const quotable = (raw: string) => !/[@?#]/.test(raw);

export function parseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`CONFORMANCE_BASE_URL is not an absolute URL${quotable(raw) ? `: "${raw}"` : ''} (expected e.g. https://unleash.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`CONFORMANCE_BASE_URL must start with http:// or https://${quotable(raw) ? `; it starts with "${url.protocol}"` : ''}`);
  if (url.username || url.password) throw new ConfigError('CONFORMANCE_BASE_URL must not carry credentials; give the token in CONFORMANCE_ADMIN_TOKEN');
  if (url.search || url.hash) throw new ConfigError('CONFORMANCE_BASE_URL must not have a query or fragment: give the part before /api/admin');
  // The URL parser keeps an explicit port 0, where no server can listen: the run could only fail on every request.
  if (url.port === '0') throw new ConfigError('CONFORMANCE_BASE_URL has port 0, where no server listens: give the port the deployment serves on');
  if (/\/api\/admin\/?$/.test(url.pathname)) throw new ConfigError('CONFORMANCE_BASE_URL must be the part before /api/admin, without /api/admin itself');
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** A path below the base URL, never another address: the description is the target's own. */
export function parseOpenapiPath(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!/^\/[^\s#]*$/.test(raw) || raw.startsWith('//'))
    throw new ConfigError(`CONFORMANCE_OPENAPI_PATH must be a path below the base URL starting with /, such as /docs/openapi.json, not "${raw}"`);
  return raw;
}
