import { DESCRIPTION_PATH } from './description.ts';
import { REFERENCE_FIXTURES } from './fixtures.ts';
import { startReferenceServer } from './server.ts';

/** The embedded reference target as it announces itself: where it listens and the tokens that fit it. */
export interface EmbeddedTarget {
  baseUrl: string;
  adminToken: string;
  /** Tokens refused by both operations. */
  forbiddenTokens: string[];
  /** Tokens refused the signup token only. */
  forbiddenTokensSignup: string[];
  signupTokens: string[];
  /** Where it publishes its own OpenAPI description. */
  openapiPath: string;
  close(): Promise<void>;
}

/** Starts the reference implementation in this process on a free loopback port. */
export async function startEmbeddedTarget(): Promise<EmbeddedTarget> {
  const { server, url } = await startReferenceServer(0);
  return {
    baseUrl: url,
    adminToken: REFERENCE_FIXTURES.adminToken,
    forbiddenTokens: [REFERENCE_FIXTURES.forbiddenToken],
    forbiddenTokensSignup: [REFERENCE_FIXTURES.viewerToken],
    signupTokens: [...REFERENCE_FIXTURES.signupTokens],
    openapiPath: DESCRIPTION_PATH,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
