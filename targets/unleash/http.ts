import { TargetError, errorMessage } from './util.js';

export interface HttpResponse {
  status: number;
  contentType: string | null;
  text: string;
  /** Parsed body when it is JSON, else undefined. */
  json: unknown;
  setCookies: string[];
}

export interface RequestOptions {
  /** Sent verbatim as the `authorization` header, as the specification describes. */
  authorization?: string;
  cookie?: string;
  body?: unknown;
  timeoutMs?: number;
}

export async function request(
  baseUrl: string,
  method: string,
  urlPath: string,
  options: RequestOptions = {},
): Promise<HttpResponse> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  if (options.cookie) headers.cookie = options.cookie;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(new URL(urlPath, baseUrl), {
      method,
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
    });
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    throw new TargetError(`${method} ${urlPath} failed: ${errorMessage(cause ?? error)}`);
  }
  const text = await response.text();
  let json: unknown;
  if (text.length > 0) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    json,
    setCookies: response.headers.getSetCookie(),
  };
}

/** Turns Set-Cookie headers into a Cookie header value (name=value pairs only). */
export function cookieHeader(setCookies: string[]): string {
  return setCookies
    .map((c) => c.split(';')[0]?.trim())
    .filter((c): c is string => Boolean(c))
    .join('; ');
}
