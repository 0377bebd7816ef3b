import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Ajv, ValidateFunction } from 'ajv';
import { makeFolder } from './folders.ts';

// Ajv turns each schema into JavaScript: tens of milliseconds a schema, and as much again to load Ajv, at
// the start of every run and of every self-test run. The JavaScript of each compiled schema is kept (Ajv's
// standalone code) in a cache named by a digest of the exact schema, Ajv's version and the options; a run
// loads it in a millisecond, and only a schema it has never seen is compiled. Ajv is loaded only then.

const AJV_VERSION: string = require('ajv/package.json').version;

/** Overrides where the suite keeps what it derives from its own files; the self-tests use it to start from an empty cache. */
export const CACHE_VARIABLE = 'ADMIN_API_CONFORMANCE_CACHE';

/** The package's root: this file is in harness/ of a clone, or in dist/harness/ of the installed package. */
function packageRoot(): string {
  return [path.dirname(__dirname), path.dirname(path.dirname(__dirname))].find((dir) => existsSync(path.join(dir, 'package.json'))) ?? __dirname;
}

/** Where the suite keeps what it derives from its own files: node_modules/.cache, as other tools keep theirs. */
export function cacheRoot(env: Record<string, string | undefined> = process.env): string {
  return env[CACHE_VARIABLE] || path.join(packageRoot(), 'node_modules', '.cache', 'admin-api-conformance');
}

/** Where compiled schemas are kept. */
export const cacheDir = (env: Record<string, string | undefined> = process.env) => path.join(cacheRoot(env), 'schemas');

/** What a compiled schema is made from; the same description always gives the same validator. */
export interface SchemaSource {
  /** The family of Ajv options the validator is compiled with, named and versioned by its caller. */
  options: string;
  schema: unknown;
  /** A schema of the document by its $id and fragment, when one of several added schemas is meant. */
  ref?: string;
  /** The format definitions the code refers to by name, passed in when it is loaded. */
  formats: Record<string, unknown>;
}

/** Compiles the schema on an Ajv instance made with `code: { source: true, formats: _\`__formats\` }`. */
export type Compile = () => { ajv: Ajv; validate: ValidateFunction };

const keyOf = (source: SchemaSource) =>
  createHash('sha256')
    .update(JSON.stringify([AJV_VERSION, source.options, source.ref ?? '', source.schema]))
    .digest('hex')
    .slice(0, 32);

// The standalone code is CommonJS that names its formats `__formats`; wrapped, it takes them as an argument.
// Ajv's runtime helpers it requires are named by where they are, so that the code loads from any folder (a
// reinstall that moves them makes the file fail to load, and it is compiled again).
function wrap(code: string): string {
  const located = code.replace(/require\("([^"]+)"\)/g, (_, id: string) => `require(${JSON.stringify(require.resolve(id))})`);
  return `module.exports = function (__formats) {\nconst module = { exports: {} };\nconst exports = module.exports;\n${located}\nreturn module.exports;\n};\n`;
}

function load(file: string, formats: Record<string, unknown>): ValidateFunction | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const make: unknown = require(file);
    const validate: unknown = typeof make === 'function' ? make(formats) : undefined;
    return typeof validate === 'function' ? (validate as ValidateFunction) : undefined;
  } catch {
    // A file cut short or damaged: compiled again below, and replaced.
    delete require.cache[file];
    return undefined;
  }
}

/** A part of a file older than this was left by a run that was killed; a younger one may be another run's, still writing. */
export const ABANDONED_PARTIAL_MS = 60 * 60 * 1000;

/** Removes the parts of files that killed runs left in a cache folder. */
function sweepAbandoned(dir: string, now = Date.now()): void {
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.partial')) continue;
    const file = path.join(dir, name);
    try {
      if (now - statSync(file).mtimeMs > ABANDONED_PARTIAL_MS) rmSync(file, { force: true });
    } catch {
      // gone already: another run swept it
    }
  }
}

/**
 * Writes whole or not at all: a run killed halfway, or another run writing the same file, leaves no part of
 * one under the file's name. A part a killed run left is removed by the next run that writes to the folder.
 */
export function store(file: string, text: string): void {
  const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
  try {
    makeFolder(path.dirname(file));
    writeFileSync(partial, text);
    renameSync(partial, file);
    sweepAbandoned(path.dirname(file));
  } catch {
    // A folder this user may not write to (a shared installation): the run compiles every time instead.
    try {
      rmSync(partial, { force: true });
    } catch {
      // nothing was written
    }
  }
}

/** The validator of a schema: from the cache when it was compiled before, else compiled now and kept. */
export function compiledSchema(source: SchemaSource, compile: Compile, dir = cacheDir()): { validate: ValidateFunction; cached: boolean } {
  const file = path.join(dir, `${keyOf(source)}.cjs`);
  const cached = load(file, source.formats);
  if (cached) return { validate: cached, cached: true };
  const { ajv, validate } = compile();
  const standalone: (ajv: Ajv, validate: ValidateFunction) => string = require('ajv/dist/standalone/index.js').default;
  store(file, wrap(standalone(ajv, validate)));
  return { validate, cached: false };
}
