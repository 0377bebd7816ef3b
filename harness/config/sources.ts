import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { check, schemaFile } from '../files/checked.ts';
import { ConfigError } from '../files/config-error.ts';
import { closest, distance } from '../files/closest.ts';
import { readSettingFile } from '../files/setting-file.ts';
import { FLEET_TOKENS_VARIABLE, isTokenVariable } from './token-variables.ts';

// The sources of the settings: the CONFORMANCE_ variables the suite knows (variables.json), their names checked
// in the environment and in `.env`, and one target's layers (environment, target file, `.env`) merged.

export type Source = Record<string, string | undefined>;

interface Variable {
  name: string;
  target: boolean;
  help: string;
}

let variables: Variable[] | undefined;

/** Every CONFORMANCE_ variable the suite reads (harness/config/variables.json). */
export function knownVariables(): Variable[] {
  if (variables) return variables;
  const read = check<{ variables: Variable[] }>(schemaFile('variables.schema.json'), JSON.parse(readFileSync(path.join(__dirname, 'variables.json'), 'utf8')));
  if (!read.ok) throw new Error(`harness/config/variables.json does not match its schema: ${read.errors.join('; ')}`);
  return (variables = read.value.variables);
}

/** The variables that describe the target: any of them present, even empty, rules the embedded target out. */
export const targetVariables = () =>
  knownVariables()
    .filter((v) => v.target)
    .map((v) => v.name);

const PREFIX = 'CONFORMANCE_';
const STEM = PREFIX.slice(0, -1);

/** The suite's settings: its CONFORMANCE_ variables, a fleet's tokens aside (read from the environment by name alone, token-variables.ts). */
const ours = (source: Source): Source => Object.fromEntries(Object.entries(source).filter(([k]) => k.startsWith(PREFIX) && !isTokenVariable(k)));

/**
 * Whether a name was meant for the suite: ours, or ours misspelt in its case or its prefix
 * (`conformance_base_url`, `CONFORMACE_BASE_URL`), which would otherwise be passed over in silence.
 */
function meantForUs(name: string): boolean {
  const upper = name.toUpperCase();
  return upper.startsWith(STEM) || distance(upper.split('_')[0], STEM) <= 2;
}

/**
 * A misspelt name is a mistake, never a setting silently not taken. A fleet's token variables, and the list of those
 * the run declares, are the environment's alone: `.env` is a file of the tree, as the fleet file is.
 */
function checkNames(source: Source, where: string, environment: boolean): void {
  const known = knownVariables().map((v) => v.name);
  for (const name of Object.keys(source).filter(meantForUs)) {
    if (!environment && (isTokenVariable(name) || name === FLEET_TOKENS_VARIABLE))
      throw new ConfigError(
        `${where} sets ${name}, which the environment alone gives: a fleet file's tokens, and the variables declared as tokens, are set where the CI gives its secrets`,
      );
    if (known.includes(name) || isTokenVariable(name)) continue;
    const guess = closest(name.toUpperCase(), known);
    throw new ConfigError(
      `${where} sets ${name}, which the suite does not know${guess ? `; did you mean ${guess}?` : ''} (admin-api-conformance --help lists them)`,
    );
  }
}

const nonEmpty = (source: Source): Source => Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));

/**
 * `.env`'s settings, none when there is no such file. A run reads it once, with its settings
 * (harness/config/settings.ts); a run stopped by a configuration error reads it again for its report folder.
 */
export function readDotenv(file: string): Source {
  if (!existsSync(file)) return {};
  const read = readSettingFile(file);
  if ('reason' in read) throw new ConfigError(`.env (${file}) cannot be read (${read.reason})`);
  return parseDotenv(read.bytes);
}

/** The CONFORMANCE_ variables of the environment and of `.env`, names checked, values as given. */
export interface Variables {
  env: Source;
  dotenv: Source;
  dotenvFile: string;
}

/** The CONFORMANCE_ variables of the environment and of `.env` in the current folder, names checked, values as given. */
export function readVariables(env: Source, cwd: string): Variables {
  const dotenvFile = path.join(cwd, '.env');
  const dotenv = readDotenv(dotenvFile);
  checkNames(env, 'the environment', true);
  checkNames(dotenv, `.env (${dotenvFile})`, false);
  return { env: ours(env), dotenv: ours(dotenv), dotenvFile };
}

/** A variable as the environment gives it, or else as `.env` does; empty as given. */
export const variable = (variables: Variables, name: string): string | undefined => variables.env[name] ?? variables.dotenv[name];

/** The sources of one target's settings, the most explicit first: the environment, its target file, `.env`. */
export interface Layers {
  env: Source;
  file: Source;
  dotenv: Source;
}

/** The settings the layers give, the most explicit source winning, empty values dropped; merge() checks them too. */
export const layered = (layers: Layers): Source => nonEmpty({ ...layers.dotenv, ...layers.file, ...layers.env });

export interface Merged {
  source: Source;
  /** Settings of `.env` that a more explicit source overrides: reported, never silently dropped. */
  notices: string[];
}

/**
 * The command line and environment first, then the target file, then `.env`: the most explicit source
 * wins, and every value of `.env` that another source overrides is named in a notice.
 */
export function merge(layers: Layers, fileName?: string): Merged {
  const notices: string[] = [];
  for (const [name, value] of Object.entries(nonEmpty(layers.dotenv))) {
    const by = layers.env[name] !== undefined ? 'the environment' : layers.file[name] !== undefined ? `the target file ${fileName}` : undefined;
    if (by && (layers.env[name] ?? layers.file[name]) !== value) notices.push(`${name} from .env is overridden by ${by}`);
  }
  const source = { ...layers.dotenv, ...layers.file, ...layers.env };
  // A target variable that is set but empty is a missing secret, not a choice: it is refused, never ignored.
  const empty = targetVariables().find((name) => source[name] === '');
  if (empty) {
    const where = layers.env[empty] !== undefined ? 'in the environment' : layers.file[empty] !== undefined ? `in the target file ${fileName}` : 'in .env';
    throw new ConfigError(`${empty} is set but empty ${where}: give it a value or unset it (a CI secret that is missing arrives empty)`);
  }
  return { source: layered(layers), notices };
}

/** Where the reports go, read without checking anything else: a run stopped by a configuration error still clears it. */
export function reportDirOf(env: Source, cwd: string): string | undefined {
  try {
    return reportDirIn(env, readDotenv(path.join(cwd, '.env')), cwd);
  } catch {
    return undefined;
  }
}

/** Whether a folder is named by a `~` no shell expanded (`~`, `~/reports`, `~user/reports`), which names no folder the user meant. */
export const isUnexpandedHome = (named: string) => named.trimStart().startsWith('~');

/** Where the reports go, given the environment and `.env` as read, unchecked. */
export function reportDirIn(env: Source, dotenv: Source, cwd: string): string | undefined {
  const named = env.CONFORMANCE_REPORT_DIR || dotenv.CONFORMANCE_REPORT_DIR || 'conformance-report';
  // Spaces alone, or a `~` no shell expanded, name no folder (the configuration refuses them): none is taken.
  return named.trim() === '' || isUnexpandedHome(named) ? undefined : path.resolve(cwd, named);
}
