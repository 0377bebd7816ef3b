import { hasJsonBody, type Exchange } from './exchange.ts';

export type Readable = { ok: true; body: unknown } | { ok: false; reason: string };

function statusReason(exchange: Exchange): string {
  const status = exchange.status!;
  if (status >= 300 && status < 400) return `answered ${status}, a redirect to ${exchange.location ?? 'nowhere'}; the suite never follows redirects`;
  if (status === 401 || status === 403) return `answered ${status} to the admin token: check that CONFORMANCE_ADMIN_TOKEN may call this operation`;
  if (status === 404 && exchange.request.path.includes('/invite-link/tokens/')) return 'answered 404: the target does not know this signup token; check CONFORMANCE_SIGNUP_TOKENS';
  return `answered ${status} where the document gives 200`;
}

/** Whether an authorised request produced a 200 JSON body that the data clauses can judge. */
export function readBody(exchange: Exchange): Readable {
  if (exchange.failure !== undefined) return { ok: false, reason: exchange.failure };
  if (exchange.status !== 200) return { ok: false, reason: statusReason(exchange) };
  if (!hasJsonBody(exchange)) return { ok: false, reason: exchange.jsonError ?? 'no body' };
  return { ok: true, body: exchange.json };
}
