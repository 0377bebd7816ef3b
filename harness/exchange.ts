/** Who a request speaks as: the configured tokens, a made-up invalid one, or no header at all. */
export type Credential = 'admin' | 'forbidden' | 'invalid' | 'none';

export interface ExchangeRequest {
  method: 'GET';
  /** Path and query below the base URL, e.g. `/api/admin/projects?archived=true`. */
  path: string;
  credential: Credential;
}

/** One request and what came back, or why nothing usable came back. */
export interface Exchange {
  request: ExchangeRequest;
  url: string;
  startedAt: number;
  durationMs: number;
  status?: number;
  contentType?: string;
  /** Response headers in which a target names its own version (Server, *-version). */
  versionHeaders?: Record<string, string>;
  /** Location of a redirect, which the suite reports and never follows. */
  location?: string;
  bodyText?: string;
  bodyBytes: number;
  json?: unknown;
  /** Why the body is not JSON, when it is not. */
  jsonError?: string;
  /** Why no complete response was read: network error, timeout, size cap. */
  failure?: string;
}

export function isJsonMediaType(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0].trim().toLowerCase() === 'application/json';
}

export function hasJsonBody(exchange: Exchange): boolean {
  return exchange.failure === undefined && exchange.jsonError === undefined && exchange.bodyText !== undefined;
}
