import type { TargetConfig } from './config.ts';
import type { Credential, Exchange } from './exchange.ts';
import { PROJECTS_PATH, authTokenPath, tokenPath } from './plan.ts';
import { keyOf, type Recording } from './recording.ts';
import { runContextOf, type RunContext } from './run-context.ts';

/** The deployment under test, as it answered the run's requests. */
export class Target {
  private readonly byKey: Map<string, Exchange>;

  constructor(readonly config: TargetConfig, private readonly recording: Recording) {
    this.byKey = new Map(recording.exchanges.map((e) => [keyOf(e.request), e]));
  }

  get context(): RunContext {
    return runContextOf(this.config, this.recording);
  }

  get invalidToken(): string {
    return this.recording.run.invalidToken;
  }

  get unknownSecret(): string {
    return this.recording.run.unknownSecret;
  }

  get(path: string, credential: Credential): Exchange {
    const exchange = this.byKey.get(keyOf({ path, credential }));
    if (!exchange) throw new Error(`the request plan has no ${credential} request to ${path}`);
    return exchange;
  }

  token(secret: string, credential: Credential = 'admin'): Exchange {
    return this.get(tokenPath(secret), credential);
  }

  /** The token request of the authentication checks. */
  authToken(credential: Credential): Exchange {
    return this.get(authTokenPath(this.config, this.recording.run), credential);
  }

  projects(query = '', credential: Credential = 'admin'): Exchange {
    return this.get(PROJECTS_PATH + query, credential);
  }
}
