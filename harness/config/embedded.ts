import path from 'node:path';
import { ConfigError } from '../files/config-error.ts';
import { ciMarker } from './ci.ts';
import { targetVariables, type Source } from './sources.ts';
import { forbiddenCredentials, type ForbiddenCredential } from './tokens.ts';

// The embedded reference target: the target of a run that names none, when that run may check it (a clone of the
// suite, asked or not; the installed command and a CI job only when asked), and its settings once it has started.

export const EMBEDDED_NAME = 'embedded reference target';

/** Whether this is the installed command (the npm package runs its build, dist/), not a clone of the suite. */
const INSTALLED = path.basename(path.resolve(__dirname, '..', '..')) === 'dist';

/** A yes/no setting: true, false, or not given. */
export function parseSwitch(variable: string, raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  if (['1', 'true', 'on', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'off', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${variable} must be true or false, not "${raw}"`);
}

/** What names a target and the tokens it is asked with. */
export interface TargetIdentity {
  name: string;
  baseUrl: string;
  adminToken: string;
  forbidden: ForbiddenCredential[];
  signupTokens: string[];
}

/**
 * The embedded reference target runs only when nothing names a target, and is the demo of a clone of the
 * suite: the installed command, and a run under CI, check it only when asked for (CONFORMANCE_EMBEDDED=true),
 * so that a job, a cron job or a hand-run whose configuration is missing never passes on it as though a
 * deployment did. Global setup starts it, and it announces its address and tokens then.
 */
export function embeddedTarget(source: Source, env: Source): TargetIdentity {
  const asked = parseSwitch('CONFORMANCE_EMBEDDED', source.CONFORMANCE_EMBEDDED);
  if (asked === false)
    throw new ConfigError('no target: set CONFORMANCE_BASE_URL (or CONFORMANCE_TARGET), or allow the embedded reference target (CONFORMANCE_EMBEDDED)');
  if (INSTALLED && asked !== true)
    throw new ConfigError(
      'no target: set CONFORMANCE_BASE_URL and CONFORMANCE_ADMIN_TOKEN (or CONFORMANCE_TARGET); the embedded reference target, a demo, runs only with CONFORMANCE_EMBEDDED=true',
    );
  const ci = ciMarker(env);
  if (ci !== undefined && asked !== true)
    throw new ConfigError(
      `no target under CI (${ci} is set): set CONFORMANCE_BASE_URL and CONFORMANCE_ADMIN_TOKEN (or CONFORMANCE_TARGET), or CONFORMANCE_EMBEDDED=true to check the embedded reference target`,
    );
  return { name: EMBEDDED_NAME, baseUrl: '', adminToken: '', forbidden: [], signupTokens: [] };
}

/** Nothing is guessed: a target setting without a base URL, or the embedded target asked for beside one, is a mistake. */
export function checkTargetSettings(source: Source): void {
  const given = targetVariables().filter((name) => source[name] !== undefined);
  if (given.length === 0) return;
  if (parseSwitch('CONFORMANCE_EMBEDDED', source.CONFORMANCE_EMBEDDED) === true)
    throw new ConfigError(`CONFORMANCE_EMBEDDED=true, yet ${given[0]} names a target: unset one of them`);
  if (source.CONFORMANCE_BASE_URL === undefined)
    throw new ConfigError(
      `${given[0]} is set but CONFORMANCE_BASE_URL is not: give the deployment's base URL, or unset ${given.join(', ')} to check the embedded reference target`,
    );
}

/** What the embedded target announces once it listens: its address, the tokens that fit it, and where its description is. */
export interface Announced {
  baseUrl: string;
  adminToken: string;
  forbiddenTokens: string[];
  forbiddenTokensSignup: string[];
  signupTokens: string[];
  openapiPath?: string;
}

/** The embedded target's configuration once it has announced where it listens and which tokens fit it. */
export function withEmbedded<T extends TargetIdentity & { openapiPath?: string }>(config: T, announced: Announced): T {
  const forbidden = forbiddenCredentials(announced.forbiddenTokens, announced.forbiddenTokensSignup, []);
  return {
    ...config,
    baseUrl: announced.baseUrl,
    adminToken: announced.adminToken,
    forbidden,
    signupTokens: announced.signupTokens,
    openapiPath: announced.openapiPath,
  };
}
