import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ABANDONED_PARTIAL_MS, CACHE_VARIABLE, compiledSchema, store } from '../../harness/compiled-schemas.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// The compiled-schema cache (harness/compiled-schemas.ts) must change no verdict: every variant of the
// reference server is judged in a fresh process with an empty cache (Ajv compiles), with the cache that
// run filled (Ajv's compiler is not even loaded), and with that cache damaged (compiled again, repaired).

interface Judged {
  judged: unknown;
  files: unknown;
  ajvCompilerLoaded: boolean;
  yamlLoaded: boolean;
}

function judgeEveryVariant(cache: string): Judged {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'self-tests/support/judge-every-variant.ts'], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH, [CACHE_VARIABLE]: cache },
    maxBuffer: 64 * 2 ** 20,
  });
  return JSON.parse(out.toString()) as Judged;
}

test.describe.configure({ timeout: 60_000 });

test('judging from the cache of compiled schemas and of the catalogue gives every verdict and violation that compiling gives; a damaged cache is made again, one that cannot be made costs a compile', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-schemas-'));
  const cache = path.join(dir, 'cache');
  try {
    const schemas = path.join(cache, 'schemas');
    const cold = judgeEveryVariant(cache);
    expect([cold.ajvCompilerLoaded, cold.yamlLoaded]).toEqual([true, true]);
    const kept = new Map(readdirSync(schemas).map((name) => [name, readFileSync(path.join(schemas, name), 'utf8')]));
    expect(kept.size).toBeGreaterThan(0);
    const [catalogue] = readdirSync(path.join(cache, 'catalogue')).map((name) => path.join(cache, 'catalogue', name));

    const warm = judgeEveryVariant(cache);
    expect(warm.ajvCompilerLoaded, 'every schema came from the cache').toBe(false);
    expect(warm.yamlLoaded, 'the catalogue came from the cache').toBe(false);
    expect(warm.judged).toEqual(cold.judged);
    expect(warm.files).toEqual(cold.files);

    // Cut short, emptied, or not code at all: each such file is compiled again, and replaced by what a compile writes.
    [...kept.keys()].forEach((name, i) =>
      writeFileSync(path.join(schemas, name), ['', 'module.exports = 42;', 'module.exports = function (', '\u0000'][i % 4]),
    );
    const catalogueKept = readFileSync(catalogue, 'utf8');
    writeFileSync(catalogue, '[{"id": "not.a.clause"}]');
    const damaged = judgeEveryVariant(cache);
    expect(damaged.ajvCompilerLoaded).toBe(true);
    expect(damaged.judged).toEqual(cold.judged);
    expect(damaged.files).toEqual(cold.files);
    expect(damaged.yamlLoaded).toBe(true);
    expect(new Map([...kept.keys()].map((name) => [name, readFileSync(path.join(schemas, name), 'utf8')])), 'the damaged files were replaced').toEqual(kept);
    expect(readFileSync(catalogue, 'utf8'), 'the damaged catalogue was replaced').toBe(catalogueKept);

    // A file where the folder would be: no user, root included, can make the folder there.
    const blocked = path.join(dir, 'a-file');
    writeFileSync(blocked, '');
    const uncached = judgeEveryVariant(path.join(blocked, 'schemas'));
    expect(uncached.ajvCompilerLoaded).toBe(true);
    expect(uncached.judged).toEqual(cold.judged);
    expect(readdirSync(dir).sort()).toEqual(['a-file', 'cache']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a schema is kept under a name made from the schema itself: a changed schema is compiled, never read from the older file', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-schemas-'));
  const compileOn = (schema: object) => () => {
    const { Ajv2020, _ } = require('ajv/dist/2020.js');
    const ajv = new Ajv2020({ code: { source: true, formats: _`__formats` } });
    return { ajv, validate: ajv.compile(schema) };
  };
  const kept = (schema: object) => compiledSchema({ options: 'test', schema, formats: {} }, compileOn(schema), dir);
  try {
    const asString = { type: 'string' };
    const asNumber = { type: 'number' };
    expect(kept(asString).cached).toBe(false);
    expect(kept(asString).cached).toBe(true);
    const changed = kept(asNumber);
    expect(changed.cached).toBe(false);
    expect([changed.validate(1), changed.validate('1'), kept(asString).validate('1')]).toEqual([true, false, true]);
    expect(readdirSync(dir)).toHaveLength(2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a part of a file a killed run left in the cache is removed by the next write there; a part another run may still be writing stays', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-schemas-'));
  try {
    const abandoned = path.join(dir, 'a.cjs.0123456789ab.partial');
    const writing = path.join(dir, 'b.cjs.ba9876543210.partial');
    for (const file of [abandoned, writing]) writeFileSync(file, 'module.exports = ');
    const then = (Date.now() - ABANDONED_PARTIAL_MS - 60_000) / 1000;
    utimesSync(abandoned, then, then);
    store(path.join(dir, 'c.cjs'), 'module.exports = 1;\n');
    expect(readdirSync(dir).sort()).toEqual(['b.cjs.ba9876543210.partial', 'c.cjs']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
