// Every way a request can fail to bring back a complete answer, in words: what happened, and the fix
// where there is one. Nothing else in the suite words a transport failure.

/** Text the target chose (a coding's name), quoted and cut, so that it cannot pass for the suite's own words. */
function quoted(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

export function bodyOverCap(maxBytes: number): string {
  return `the body is larger than ${maxBytes} bytes (CONFORMANCE_MAX_BODY_BYTES); reading stopped`;
}

export function decodedOverCap(coding: string, maxBytes: number): string {
  return `the body, decoded from ${coding}, is larger than ${maxBytes} bytes (CONFORMANCE_MAX_BODY_BYTES); decoding stopped`;
}

export function undecodableBody(coding: string, detail: string): string {
  return `the body is labelled Content-Encoding: ${coding} but cannot be decoded as ${coding} (${detail})`;
}

export function unknownCoding(coding: string, accepted: string): string {
  return `the body is labelled Content-Encoding: ${quoted(coding)}, a coding the suite cannot decode (it asks for ${accepted})`;
}

/** The deadline passed: before any answer, or while its body was still arriving. */
export function deadlinePassed(timeoutMs: number, status: number | undefined): string {
  return status === undefined
    ? `no answer within ${timeoutMs} ms (CONFORMANCE_TIMEOUT_MS)`
    : `the body was still arriving ${timeoutMs} ms after the request (CONFORMANCE_TIMEOUT_MS); reading stopped`;
}

/** A failure of the connection or of the HTTP exchange, as thrown by undici or Node; `status` when the answer had begun. */
export function describeTransportError(error: unknown, status: number | undefined): string {
  const err = error as { message?: string; code?: string };
  const code = err.code && err.code !== 'UND_ERR' ? ` (${err.code})` : '';
  const what = `${err.message ?? String(error)}${code}`;
  return status === undefined ? what : `the body broke off after status ${status}: ${what}`;
}
