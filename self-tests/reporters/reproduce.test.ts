import { spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { forbiddenCredentials } from '../../harness/config/tokens.ts';
import { namedSecrets } from '../../harness/secrets/secret-rule.ts';
import { exportPreamble } from '../../reporters/sections.ts';

// A copied curl line sends the same request: its placeholders ($TOKEN, $SIGNUP_TOKEN_2, ...) are shell
// variables, and the report's preamble sets each from the setting that gives its secret.

const SETTINGS = {
  CONFORMANCE_ADMIN_TOKEN: 'admin-Token-0123456789',
  CONFORMANCE_FORBIDDEN_TOKEN_SIGNUP: 'viewer-Token-1111,viewer-Token-2222',
  CONFORMANCE_SIGNUP_TOKENS: 'secret-aaaa1111,secret-bbbb2222,secret-cccc3333',
};

test('the preamble sets every placeholder from the setting, and the entry of a list, that gives its secret', () => {
  const source = {
    adminToken: SETTINGS.CONFORMANCE_ADMIN_TOKEN,
    forbidden: forbiddenCredentials([], SETTINGS.CONFORMANCE_FORBIDDEN_TOKEN_SIGNUP.split(','), []),
    signupTokens: SETTINGS.CONFORMANCE_SIGNUP_TOKENS.split(','),
  };
  const named = namedSecrets(source);
  const preamble = exportPreamble(named.map(({ placeholder, setting }) => ({ placeholder, setting })));
  expect(preamble[0]).toBe('export TOKEN="$CONFORMANCE_ADMIN_TOKEN"   # CONFORMANCE_ADMIN_TOKEN');
  const names = named.map((n) => n.placeholder.slice(1));
  const script = `${preamble.join('\n')}\nprintf '%s\\n' ${names.map((n) => `"$${n}"`).join(' ')}`;
  const shell = spawnSync('bash', ['-c', script], { env: { PATH: process.env.PATH, ...SETTINGS }, encoding: 'utf8' });
  expect(shell.stdout.trim().split('\n')).toEqual(named.map((n) => n.token));
});
