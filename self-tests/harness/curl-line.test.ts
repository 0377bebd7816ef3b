import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { curlLine } from '../../harness/judging/verdicts.ts';
import type { Exchange } from '../../harness/transport/exchange.ts';
import { createSecrets } from '../../harness/secrets/redact.ts';

// The curl line of a violation repeats its request: the shell fills in each secret from the variable its
// marker names, in the header and in the path alike, and takes everything else as written.

const secrets = createSecrets({
  adminToken: 'admin-token-0f3c9a',
  forbidden: [],
  signupTokens: ['b5f1c2d4e6a8091b', 'c0ffee00aa11bb22'],
});

const exchangeTo = (url: string): Exchange =>
  ({ request: { method: 'GET', path: new URL(url).pathname, credential: 'admin' }, url, startedAt: 0, durationMs: 0, bodyBytes: 0 }) as Exchange;

/** What bash makes of the line's arguments, with the secrets' variables set. */
function argumentsOf(line: string): string[] {
  const script = `TOKEN=T SIGNUP_TOKEN_2=S2; set -- ${line.replace(/^curl /, '')}; printf '%s\\n' "$@"`;
  return execFileSync('bash', ['-c', script]).toString().trim().split('\n');
}

test('a secret in the path is a shell variable in the curl line, like the token in the header', () => {
  const line = curlLine(exchangeTo('http://127.0.0.1:4242/api/admin/invite-link/tokens/c0ffee00aa11bb22'), secrets);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable, as the curl line writes it
  expect(line).toBe('curl -sS -i -H "authorization: $TOKEN" "http://127.0.0.1:4242/api/admin/invite-link/tokens/${SIGNUP_TOKEN_2}"');
  expect(argumentsOf(line)).toEqual(['-sS', '-i', '-H', 'authorization: T', 'http://127.0.0.1:4242/api/admin/invite-link/tokens/S2']);
});

test('anything else in the URL that a shell would read is taken as written', () => {
  const line = curlLine(exchangeTo('http://127.0.0.1:4242/base$HOME/`id`/"q"/api/admin/projects'), secrets);
  expect(argumentsOf(line).at(-1)).toBe('http://127.0.0.1:4242/base$HOME/`id`/"q"/api/admin/projects');
});
