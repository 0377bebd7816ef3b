import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ConfigError } from '../../harness/files/config-error.ts';
import { readYamlFile } from '../../harness/files/yaml-file.ts';

// A YAML mistake is named by the parser's code, where it is, and what to do about that mistake: advice to
// quote a value is right for an alias and wrong for a tab or a key given twice.

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-yaml-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MISTAKES: { title: string; text: string; says: string }[] = [
  {
    title: 'an unquoted Unleash token, read as an alias',
    text: 'baseUrl: http://127.0.0.1\nadminToken: *:*.d3adb33f\n',
    says: '(BAD_ALIAS at line 2, column 13); quote values that start with * & ! % @ or `, as Unleash tokens (*:*.…) do',
  },
  {
    title: 'a value starting with a backquote',
    text: 'adminToken: `abc`\n',
    says: '(BAD_SCALAR_START at line 1, column 13); quote values that start with * & ! % @ or `, as Unleash tokens (*:*.…) do',
  },
  {
    title: 'a key given twice',
    text: 'adminToken: "a"\nadminToken: "b"\n',
    says: '(DUPLICATE_KEY at line 2, column 1); a key is given twice in one map: keep one',
  },
  {
    title: 'a tab as indentation',
    text: 'product:\n\tname: x\n',
    says: '(TAB_AS_INDENT at line 2, column 1); indent with spaces: YAML does not take tabs for indentation',
  },
  {
    title: 'a double quote never closed',
    text: 'adminToken: "abc\n',
    says: '(MISSING_CHAR at line 2, column 1); a quote or a bracket opened here is not closed',
  },
  {
    title: 'a backslash escape YAML does not know, in double quotes',
    text: 'adminToken: "ab\\qc"\n',
    says: '(BAD_DQ_ESCAPE at line 1, column 16); a backslash in double quotes starts an escape that YAML does not know: put the value in single quotes',
  },
  {
    title: 'two documents in one file',
    text: 'name: a\n---\nname: b\n',
    says: '(MULTIPLE_DOCS at line 2, column 1); a settings file is one YAML document: remove the `---` line and what follows, or make it a file of its own',
  },
];

for (const { title, text, says } of MISTAKES)
  test(`${title} is named, placed and given its own advice`, () => {
    const file = path.join(dir, 'target.yaml');
    writeFileSync(file, text);
    let thrown: unknown;
    try {
      readYamlFile(file, 'the target file');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toBe(`the target file ${file} is not valid YAML ${says}`);
  });

/** Nine aliases of nine aliases, six deep: a few hundred bytes that would expand to half a million values. */
const ALIAS_BOMB = [
  'a: &a [x, x, x, x, x, x, x, x, x]',
  ...['b', 'c', 'd', 'e', 'f'].map((name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcde'[i]}`).join(', ')}]`),
].join('\n');

// The parser refuses to expand such aliases: the file is named for its aliases, and advice to quote a value, right
// for an unquoted Unleash token, is wrong here.
test('an alias bomb: a fleet, target or deviations file whose aliases would expand beyond bounds is refused for its aliases, without advice to quote', () => {
  for (const [what, text] of [
    ['the fleet file', `${ALIAS_BOMB}\ntargets: [*f]\n`],
    ['the target file', `${ALIAS_BOMB}\nbaseUrl: http://127.0.0.1:9\n`],
    ['the deviations file', `${ALIAS_BOMB}\ndeviations: *f\n`],
  ]) {
    const file = path.join(dir, 'aliases.yaml');
    writeFileSync(file, text);
    expect(() => readYamlFile(file, what)).toThrow(
      new ConfigError(
        `${what} ${file} is refused for its aliases (from line 2, column 8): they expand to more values than a settings file holds; write the values out`,
      ),
    );
  }
});

test('an alias before its anchor is an alias without anchor, and given the advice to quote', () => {
  const file = path.join(dir, 'target.yaml');
  writeFileSync(file, 'adminToken: *a\nbaseUrl: &a http://127.0.0.1:9\n');
  expect(() => readYamlFile(file, 'the target file')).toThrow(
    `the target file ${file} is not valid YAML (BAD_ALIAS at line 1, column 13); quote values that start with * & ! % @ or \`, as Unleash tokens (*:*.…) do`,
  );
});
