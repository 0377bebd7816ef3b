import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../harness/config/config.ts';
import { loadTargets } from '../../harness/config/targets.ts';

// Issue 13, point 2: the vendor states the product under test, in a target file or in variables.

const TARGET = { CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_ADMIN_TOKEN: 'admin-token-0123' };

function inFolder<T>(files: Record<string, string>, body: (dir: string) => T): T {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-product-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    return body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const TARGET_FILE =
  'baseUrl: http://127.0.0.1:9\nadminToken: "admin-token-0123"\nproduct:\n  name: Flagship\n  version: 4.2.0\n  vendor: Example Ltd\n  contact: conformance@example.invalid\n';

test('a product block in the target file states name, version, vendor and contact', () => {
  const config = inFolder({ 'target.yaml': TARGET_FILE }, (dir) => loadConfig({ CONFORMANCE_TARGET: 'target.yaml' }, dir));
  expect(config.product).toEqual({ name: 'Flagship', version: '4.2.0', vendor: 'Example Ltd', contact: 'conformance@example.invalid' });
});

test('CONFORMANCE_PRODUCT_* state the same, and override the target file key by key', () => {
  const config = inFolder({ 'target.yaml': TARGET_FILE }, (dir) =>
    loadConfig({ CONFORMANCE_TARGET: 'target.yaml', CONFORMANCE_PRODUCT_VERSION: '4.2.1' }, dir),
  );
  expect(config.product).toEqual({ name: 'Flagship', version: '4.2.1', vendor: 'Example Ltd', contact: 'conformance@example.invalid' });
  const fromVariables = loadConfig({ ...TARGET, CONFORMANCE_PRODUCT_NAME: 'Flagship', CONFORMANCE_PRODUCT_VERSION: '5' }, os.tmpdir());
  expect(fromVariables.product).toEqual({ name: 'Flagship', version: '5' });
});

test('no product stated is no product: reports say so rather than guess one', () => {
  expect(loadConfig(TARGET, os.tmpdir()).product).toBeUndefined();
});

test('a version, vendor or contact without a name, or an unknown key in the block, is a configuration error', () => {
  expect(() => loadConfig({ ...TARGET, CONFORMANCE_PRODUCT_VERSION: '5' }, os.tmpdir())).toThrow(
    'CONFORMANCE_PRODUCT_VERSION is set but CONFORMANCE_PRODUCT_NAME is not',
  );
  expect(() => inFolder({ 'target.yaml': `${TARGET_FILE}  edition: gold\n` }, (dir) => loadConfig({ CONFORMANCE_TARGET: 'target.yaml' }, dir))).toThrow(
    /the target file .*product/,
  );
  expect(() => loadConfig({ CONFORMANCE_PRODUCT_NAME: 'Flagship' }, os.tmpdir())).toThrow('CONFORMANCE_PRODUCT_NAME is set but CONFORMANCE_BASE_URL is not');
});

test('with several target files, each file states its own product, never the environment', () => {
  inFolder({ 'a.yaml': `name: a\n${TARGET_FILE}`, 'b.yaml': 'name: b\nbaseUrl: http://127.0.0.1:9\nadminToken: "admin-token-0123"\n' }, (dir) => {
    const run = loadTargets({ CONFORMANCE_TARGETS: 'a.yaml,b.yaml' }, dir);
    expect(run.targets.map((t) => t.product?.name)).toEqual(['Flagship', undefined]);
    expect(() => loadTargets({ CONFORMANCE_TARGETS: 'a.yaml,b.yaml', CONFORMANCE_PRODUCT_NAME: 'x' }, dir)).toThrow('unset CONFORMANCE_PRODUCT_NAME');
  });
});

test('a key the target file does not know is quoted only as a misspelling of one it does, since a secret may stand there', () => {
  const secret = 'c0ffee00aa11bb22cc33dd44';
  const message = (text: string) => {
    try {
      inFolder({ 'target.yaml': text }, (dir) => loadConfig({ CONFORMANCE_TARGET: 'target.yaml' }, dir));
    } catch (error) {
      return (error as Error).message;
    }
    return 'no error';
  };
  expect(message(`${TARGET_FILE}baseURL: http://127.0.0.1:9\n`)).toContain('has an unknown key "baseURL"; did you mean "baseUrl"?');
  const quoted = message(`${TARGET_FILE}${secret}:\n`);
  expect(quoted).toContain('has a key it does not know (not shown, as it may be a secret)');
  expect(quoted).not.toContain(secret);
});
