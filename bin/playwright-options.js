// @ts-check
/**
 * The options of Playwright's `test` command that take a value, and so the argument after them when it is
 * not written `--option=value`: `--grep @MUST` names no command. A variadic one takes every argument up to
 * the next option. A self-test holds this table to the Playwright installed; an option a later Playwright
 * adds is taken as a flag until then, its value read as an unknown command, and the line says to give it as
 * --option=value or after --.
 */
exports.PLAYWRIGHT_VALUES = new Map(
  /** @type {[string, 'one' | 'optional' | 'many'][]} */ ([
    ...['--add-reporter', '--browser', '-c', '--config', '-g', '--grep', '-G', '--grep-invert', '--global-timeout', '-j', '--workers'].map((o) => [o, 'one']),
    ...['--last-failed-file', '--max-failures', '--output', '--repeat-each', '--reporter', '--retries', '--run-agents', '--shard'].map((o) => [o, 'one']),
    ...['--test-list', '--test-list-invert', '--timeout', '--trace', '--tsconfig', '--ui-host', '--ui-port', '--update-source-method'].map((o) => [o, 'one']),
    ...['--debug', '--only-changed', '--shuffle', '-u', '--update-snapshots'].map((o) => [o, 'optional']),
    ['--project', 'many'],
  ]),
);
