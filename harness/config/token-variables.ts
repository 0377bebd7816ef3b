import { ConfigError } from '../files/config-error.ts';

// The variables a fleet file may take its tokens from: only those the run itself declares as tokens. A fleet file
// is meant to be committed, and names each token's variable beside a base URL of its own choosing: were any
// variable allowed, an edit that reads as configuration (`adminTokenFrom: GITHUB_TOKEN`) would send the CI's own
// secret to that address as `Authorization`, or put it in a URL path. A variable is declared by its name (the
// prefix below), or listed in a variable of the environment the file cannot set; the CI's and the system's own
// are never read.

/** The prefix of a variable the run declares a token by its name: the pipeline names it so, from its secret. */
export const TOKEN_PREFIX = 'CONFORMANCE_TOKEN_';

/** The other variables the run declares as tokens, comma-separated: from the environment alone, never `.env`. */
export const FLEET_TOKENS_VARIABLE = 'CONFORMANCE_FLEET_TOKENS';

/** A name an environment variable can have, so that a token or a typo is never taken for one. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** Whether a variable is a token the run declares by its name. */
export const isTokenVariable = (name: string) => name.startsWith(TOKEN_PREFIX) && name.length > TOKEN_PREFIX.length;

/**
 * Variables of the CI service (GitHub Actions' GITHUB_TOKEN and ACTIONS_RUNTIME_TOKEN, GitLab's CI_JOB_TOKEN, Azure
 * Pipelines' SYSTEM_ACCESSTOKEN, …), of a cloud's credentials, of the package managers (NPM_TOKEN, NODE_AUTH_TOKEN),
 * of the system (PATH, HOME) and the suite's own settings: never a fleet's token, even listed.
 */
const CI_OWN = new RegExp(
  `^(?:${[
    ...['GITHUB', 'GH', 'ACTIONS', 'RUNNER', 'INPUT', 'CI', 'GITLAB', 'BUILDKITE', 'CIRCLE', 'TRAVIS', 'JENKINS', 'BITBUCKET'],
    ...['DRONE', 'TEAMCITY', 'CODEBUILD', 'SYSTEM', 'AGENT', 'BUILD', 'TF', 'AWS', 'AZURE', 'ARM', 'GOOGLE', 'GCP', 'CLOUDSDK'],
    ...['NPM', 'NODE', 'YARN', 'PNPM', 'DOCKER', 'KUBERNETES', 'VAULT', 'SSH', 'GPG', 'CONFORMANCE'],
  ].join('|')})(?:_|$)|^(?:PATH|HOME|USER|LOGNAME|SHELL|PWD|TMPDIR|LANG|TERM)$`,
  'i',
);

const isCiOwn = (name: string) => CI_OWN.test(name) && !isTokenVariable(name);

/** How a fleet file's token is read: the variable it names, checked as declared, and its value. */
export type TokenReader = (variable: string, where: string, key: string) => string;

const DECLARE = `name a variable that starts with ${TOKEN_PREFIX} (the pipeline sets it from its secret)`;

/** The variables CONFORMANCE_FLEET_TOKENS lists, each a variable's name and none of the CI's own. */
function listed(env: Record<string, string | undefined>): Set<string> {
  const given = env[FLEET_TOKENS_VARIABLE];
  if (given === undefined || given.trim() === '') return new Set();
  const names = given.split(',').map((name) => name.trim());
  for (const [i, name] of names.entries()) {
    // A variable's name is no secret, but what is no name may be a token given here by mistake: it is not quoted.
    if (!VARIABLE_NAME.test(name))
      throw new ConfigError(
        `${FLEET_TOKENS_VARIABLE} entry ${i + 1} is no variable's name (not shown, as it may be a secret); give names such as EU_ADMIN_TOKEN, comma-separated`,
      );
    if (isCiOwn(name))
      throw new ConfigError(
        `${FLEET_TOKENS_VARIABLE} lists ${name}, a variable of the CI service, the system or the suite, which no fleet file may read: ${DECLARE}`,
      );
  }
  return new Set(names);
}

/**
 * Reads a fleet file's tokens from the environment: a variable the run declares (its name starts with
 * CONFORMANCE_TOKEN_, or CONFORMANCE_FLEET_TOKENS lists it), set and not empty; anything else is refused in one line
 * that names the variable and how to declare it.
 */
export function tokenReader(env: Record<string, string | undefined>): TokenReader {
  const declared = listed(env);
  return (variable, where, key) => {
    if (isCiOwn(variable))
      throw new ConfigError(
        `${where} takes ${key} from ${variable}, a variable of the CI service, the system or the suite, which a fleet file never reads: ${DECLARE}`,
      );
    if (!isTokenVariable(variable) && !declared.has(variable))
      throw new ConfigError(
        `${where} takes ${key} from ${variable}, which this run does not declare as a token: ${DECLARE}, or list ${variable} in ${FLEET_TOKENS_VARIABLE} in the environment`,
      );
    const token = env[variable];
    if (token === undefined || token.trim() === '') throw new ConfigError(`${where} takes ${key} from ${variable}, which is not set or empty`);
    return token;
  };
}
