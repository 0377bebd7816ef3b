/** Credentials and token secrets of the embedded reference target; the suite reads them in embedded mode. */
export const REFERENCE_FIXTURES = {
  adminToken: 'reference-admin-token-0f3c9a',
  /** A valid token refused by both operations (403). */
  forbiddenToken: 'reference-viewer-token-7d21be',
  /** A viewer's token: refused the signup token (403), allowed to list projects. */
  viewerToken: 'reference-viewer-pat-3e9f0a51',
  signupTokens: [
    'b5f1c2d4e6a8091b2c3d4e5f60718293', // live, two users signed up
    'c0ffee00aa11bb22cc33dd44ee55ff66', // live, no users yet, url and createdBy null
    'e1e2e3e4e5e6e7e8e9eaebecedeeef00', // expired, so disabled
    'd15ab1ed0000111122223333444455ff', // disabled before its expiry
    'a0a1a2a3a4a5a6a7a8a9aaabacadaeaf', // project role, no users field at all
  ],
} as const;

/** The variables that point the suite at a reference server (or one of its variants) listening on `baseUrl`. */
export function referenceEnvironment(baseUrl: string): Record<string, string> {
  return {
    CONFORMANCE_BASE_URL: baseUrl,
    CONFORMANCE_ADMIN_TOKEN: REFERENCE_FIXTURES.adminToken,
    CONFORMANCE_FORBIDDEN_TOKEN: REFERENCE_FIXTURES.forbiddenToken,
    CONFORMANCE_FORBIDDEN_TOKEN_SIGNUP: REFERENCE_FIXTURES.viewerToken,
    CONFORMANCE_SIGNUP_TOKENS: REFERENCE_FIXTURES.signupTokens.join(','),
  };
}
