/**
 * Who a request speaks as: the admin token, a made-up invalid one, no header at all, or one of the
 * configured forbidden credentials by its name ("forbidden", "forbidden-signup", ...).
 */
export type Credential = 'admin' | 'invalid' | 'none' | (string & {});

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
  /** The body as text, exactly as sent; the judge reads JSON from it. */
  bodyText?: string;
  bodyBytes: number;
  /** Why the body is no text at all (not UTF-8). */
  bodyError?: string;
  /** Why no complete response was read: network error, timeout, size cap. */
  failure?: string;
}

/**
 * Whether Content-Type names application/json. A header given twice arrives joined by a comma (RFC 9110,
 * 5.3), which no single media type holds outside a quoted parameter value: the answer is JSON only when
 * every one it names is, not when the first is and another is text/html.
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const unquoted = (contentType ?? '').replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return unquoted.split(',').every((mediaType) => mediaType.split(';')[0].trim().toLowerCase() === 'application/json');
}
