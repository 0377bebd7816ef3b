#!/usr/bin/env node
// @ts-check
// The suite's command: runs the Playwright suite (or merges shards' reports) and exits by the
// verdict (or by the ratchet, CONFORMANCE_GATE), whatever reporters the user adds or replaces. Plain JavaScript, so that it runs on Node 20
// without a build step; Playwright itself loads the TypeScript suite.
const { spawn, spawnSync } = require('node:child_process');
const { accessSync, constants, existsSync, readFileSync, statSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const ROOT = path.join(__dirname, '../');
const PLAYWRIGHT_CLI = require.resolve('@playwright/test/cli');
// A clone runs the TypeScript sources; the installed package, which ships no TypeScript, runs their build.
const [SUITE, EXT] = existsSync(path.join(ROOT, 'playwright.config.ts')) ? [ROOT, '.ts'] : [path.join(ROOT, 'dist'), '.js'];
const CONFIG = path.join(SUITE, 'tests', `playwright.config${EXT}`);
const REPORTER = path.join(SUITE, 'tests', `reporter${EXT}`);
/** How long a stopped run may take to write its report before it is killed. */
const STOP_GRACE_MS = 5_000;

/** Exit codes; docs/outcomes.md documents them and CI scripts rely on them. */
const EXIT = { pass: 0, violation: 1, configuration: 2, noVerdict: 3, SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

const version = () => JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;

function usage() {
  /** @type {{ variables: { name: string; help: string }[] }} */
  const { variables } = JSON.parse(readFileSync(path.join(SUITE, 'harness', 'config', 'variables.json'), 'utf8'));
  const width = Math.max(...variables.map((v) => v.name.length));
  return `admin-api-conformance ${version()}: checks a deployment of the admin API against its specification, clause by clause.

Usage:
  admin-api-conformance [run] [<base URL>] [-- <playwright options>]
                                                         run the suite (the default); e.g. https://unleash.example.com
                                                         (or --base-url URL; tokens from the environment), -- --grep @MUST;
                                                         --confirm N: a failed clause's requests sent N more times, and
                                                         a clause that fails only some of them is flaky, no verdict
  admin-api-conformance merge <shard report folder>...    merge the report folders of a run's shards (CONFORMANCE_SHARD,
                                                         or -- --shard=i/n) into the run's report, each target's report
                                                         checked against its evidence bundle; exit by its verdict;
                                                         --stale-after 24h (or 90m, 7d): older results are stale;
                                                         --deployed fleet.yaml: so are results of other versions
  admin-api-conformance verify <bundle> [--anyway] [--key <public key PEM>]
                                                         check an evidence bundle offline: its digests, then every clause judged
                                                         again from its exchanges, and with --key its signed attestation
                                                         (CONFORMANCE_SIGNING_KEY); 0 verified, 1 a difference, 2 not verifiable here
  admin-api-conformance diff <old run> <new run> [--format text|markdown|json]
                                                         compare two runs clause by clause (conformance.json, report folders or
                                                         bundles, verified first); 1 when anything regressed, 0 otherwise;
                                                         --old-document/--new-document FILE: a report's text of the document,
                                                         for runs judged by two texts (a bundle carries its own)
  admin-api-conformance trend <run>... [--format markdown|json] [--title T] [--notes FILE] [--out FILE]
                                                         a product's conformance over its versions: every clause at every
                                                         version each run names (read or stated), where it first changed,
                                                         the profiles each meets, the known deviations; 2 a run unreadable
  admin-api-conformance document [<file>]                check the document's tables (default the copy shipped) against the
                                                         contracts row by row; 0 they agree, 1 rows differ, 2 not the document
  admin-api-conformance history <file> [--target <name>] [--clause <id>] [--profile <name>]
                                                         each target's timeline in the run history (CONFORMANCE_HISTORY);
                                                         --clause: its outcome run by run; --profile: since when it is met;
                                                         1 when a clause regressed in a target's last run, 0 otherwise
  admin-api-conformance reference [--port N] [<fault>]   serve the reference implementation on 127.0.0.1, every fault and valid
                                                         variant under /variants/<name> (--list names them), and print the
                                                         settings that point the suite at it; Ctrl+C stops it
  admin-api-conformance serve [--listen HOST:PORT] [--min-interval 5m] [--max-in-flight N] [--keep N]
                                                         the exporter Prometheus scrapes (default 127.0.0.1:9726): GET
                                                         /probe?target=<name> judges that target of the settings' fleet now,
                                                         or answers its result younger than --min-interval; GET /metrics its
                                                         own; the latest --keep probes per target under tenants/ of the
                                                         report folder; Ctrl+C or SIGTERM lets the runs under way end
  admin-api-conformance help | --help | --version

Configuration comes from the environment, then the target file named by CONFORMANCE_TARGET, then .env in
the current folder; relative paths are taken from the current folder. Secrets are never command arguments.
${variables.map((v) => `  ${v.name.padEnd(width)}  ${v.help}`).join('\n')}

Exit codes:
  0    every MUST clause of the claimed profiles (CONFORMANCE_CLAIM; default every profile) exercised and met
       (known deviations aside)
  1    at least one MUST clause violated (this wins over errors); with CONFORMANCE_GATE=regressions, a regression
       against CONFORMANCE_BASELINE, or a failure the baseline did not have (0 may then stand beside a FAIL)
  2    configuration error: nothing was sent
  3    no verdict: a claimed profile not exercised in full, the target could not be reached or does not serve the
       admin API, a clause errored, the run timed out, or its reports could not be written
  129  stopped by SIGHUP, 130 by SIGINT, 143 by SIGTERM: the reports say INTERRUPTED, no verdict, unless they were
       already written (then their verdict stands)
  docs/outcomes.md has every case.

Reports go to CONFORMANCE_REPORT_DIR (default ./conformance-report): conformance.json, index.html,
summary.md, badge.svg, junit.xml, ctrf.json, requests.json, metrics.prom, evidence.tar.gz.
`;
}

/** Keeps the verdict in any reporter line-up: a user's --reporter replaces Playwright's configured ones. */
function withOurReporter(args) {
  return args.map((arg, i) => {
    if (arg.startsWith('--reporter=')) return `${arg},${REPORTER}`;
    if (arg === '--reporter' && args[i + 1] !== undefined) return arg;
    if (args[i - 1] === '--reporter') return `${arg},${REPORTER}`;
    return arg;
  });
}

/**
 * Runs Playwright, forwards a stop, and exits with the code the reporter's gate sends over the IPC channel, so that
 * the exit code is the same whatever reporters the user adds or replaces. Playwright stays in this process
 * group, so that a CI job that kills the group leaves nothing running. Its error output is held until the
 * reporter has started: what Playwright prints before, when it refuses its command line, is its message and
 * a stack, and only the message is shown.
 */
function runPlaywright(args) {
  checkTemporaryFolder();
  // Playwright's HTML reporter, asked for with --reporter=html, serves its report in a terminal until Ctrl+C
  // once a test failed: the command would never end with its verdict. The report is still written, where
  // the user stands as in a project of their own, not beside the suite (in node_modules, when installed).
  const env = {
    ...process.env,
    PLAYWRIGHT_HTML_OPEN: 'never',
    PLAYWRIGHT_HTML_OUTPUT_DIR: process.env.PLAYWRIGHT_HTML_OUTPUT_DIR || path.resolve('playwright-report'),
  };
  const child = spawn(process.execPath, [PLAYWRIGHT_CLI, ...args], { stdio: ['inherit', 'inherit', 'pipe', 'ipc'], env });
  /** @type {Outcome} what the reporter said */
  const outcome = {};
  /** @type {Buffer[] | undefined} error output not shown yet; undefined once it is passed on as it comes */
  let held = [];
  child.on('message', (/** @type {{ started?: unknown, exitCode?: unknown, headline?: unknown }} */ message) => {
    if (message?.started === true) outcome.started = true;
    if (Number.isInteger(message?.exitCode)) outcome.exitCode = /** @type {number} */ (message.exitCode);
    if (typeof message?.headline === 'string' && /^[A-Z]{2,20}$/.test(message.headline)) outcome.headline = message.headline;
    if (outcome.started && held) {
      process.stderr.write(Buffer.concat(held));
      held = undefined;
    }
  });
  child.stderr.on('data', (/** @type {Buffer} */ chunk) => {
    if (held) held.push(chunk);
    else process.stderr.write(chunk);
  });
  /** @type {NodeJS.Signals | undefined} */
  let stoppedBy;
  const stop = (/** @type {NodeJS.Signals} */ signal) => {
    if (stoppedBy) return;
    stoppedBy = signal;
    // Playwright stops on SIGINT (not on SIGTERM): it ends the tests, runs its teardown and writes the
    // report, marked interrupted. A second SIGINT, from a terminal that signalled the whole group, does no harm.
    child.kill('SIGINT');
    setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // A closed terminal: without this the command would end and leave Playwright running on its own.
  process.on('SIGHUP', stop);
  stopWithNpm(() => stop('SIGTERM'));
  child.on('close', (code, signal) => {
    const errors = Buffer.concat(held ?? []).toString();
    if (stoppedBy) process.stderr.write(errors + stoppedLine(stoppedBy, outcome));
    process.exit(stoppedBy ? EXIT[stoppedBy] : exitCodeOf(code, signal, outcome, errors));
  });
}

/**
 * @typedef {{ started?: boolean, exitCode?: number, headline?: string }} Outcome what the reporter told the command:
 * that the run began, then its exit code and the word its reports are headed with
 */

/**
 * What a stopped run says of itself, in one line. A run stopped before its reports were written printed its own line
 * (INTERRUPTED, and where its reports say so): nothing is added. One whose reports were written before the stop keeps
 * their verdict, which is named; one whose runner ended before writing any is said to have none.
 * @param {NodeJS.Signals} signal
 * @param {Outcome} outcome
 */
function stoppedLine(signal, outcome) {
  const exit = `exit code ${EXIT[/** @type {keyof typeof EXIT} */ (signal)]}`;
  if (outcome.headline === 'INTERRUPTED') return '';
  if (outcome.headline !== undefined)
    return `conformance: stopped by ${signal} after the reports were written: their verdict, ${outcome.headline}, stands; ${exit}\n`;
  return `conformance: interrupted by ${signal} before the run wrote its reports: no verdict, ${exit}\n`;
}

/** How often a run started by npm or npx looks whether npm is still there. */
const NPM_WATCH_MS = 500;

/**
 * npm stopped alone (a CI runner cancelling a step may send SIGTERM to npm only) ends without passing the signal
 * on: a run it started stops once npm is gone, as for SIGTERM, rather than go on holding the report folder and
 * write a verdict after the job has returned. Only under npm: a command run by hand in the background (nohup)
 * outlives the shell that started it, as the user meant.
 */
function stopWithNpm(stop) {
  if (!process.env.npm_lifecycle_event && !process.env.npm_command) return;
  const npm = process.ppid;
  setInterval(() => {
    if (process.ppid !== npm) stop();
  }, NPM_WATCH_MS).unref();
}

/**
 * The system's temporary folder, where the run leaves its workers their file and Playwright its by-products:
 * one that cannot be written (TMPDIR names a missing or read-only folder) is said in one line.
 */
function checkTemporaryFolder() {
  try {
    accessSync(os.tmpdir(), constants.W_OK);
    if (!statSync(os.tmpdir()).isDirectory()) throw Object.assign(new Error(), { code: 'ENOTDIR' });
  } catch (error) {
    refuse(`the temporary folder ${os.tmpdir()} cannot be written (${error.code ?? 'error'}): set TMPDIR to a writable folder`);
  }
}

/**
 * Playwright's error, printed as it refused to go on, in one line: its message without the stack frames
 * (and without Node's list of the modules that asked for one it could not find); what came before, as printed.
 */
function oneLine(errors) {
  const lines = errors.split('\n');
  const start = lines.findIndex((l) => /^(?:[A-Za-z]*Error|error): /.test(l));
  if (start < 0) return { before: errors, message: undefined };
  const end = lines.findIndex((l, i) => i > start && /^\s+at |^Require stack:|^\s*[{}]/.test(l));
  const message = lines
    .slice(start, end < 0 ? undefined : end)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ')
    .replace(/^(?:[A-Za-z]*Error|error): /, '');
  return { before: lines.slice(0, start).join('\n') + (start > 0 ? '\n' : ''), message };
}

/**
 * The first stack frame of the error in the suite's own files (not in its dependencies), as file:line below
 * the suite's folder; undefined when the error was raised elsewhere, by Playwright say.
 * @param {string} errors
 */
function ownFrame(errors) {
  const frames = errors.split('\n').filter((l) => /^\s+at /.test(l));
  for (const frame of frames) {
    const file = /\(?((?:\/|[A-Za-z]:\\)[^()]*?):(\d+):\d+\)?$/.exec(frame.trim());
    // Installed, the suite itself lies in a node_modules folder: only those below it are its dependencies.
    const inSuite = file && path.relative(SUITE, file[1]);
    if (inSuite && !inSuite.startsWith('..') && !path.isAbsolute(inSuite) && !inSuite.split(path.sep).includes('node_modules')) return `${inSuite}:${file[2]}`;
  }
  return undefined;
}

/**
 * @param {number | null} code
 * @param {NodeJS.Signals | null} signal
 * @param {Outcome} outcome what the reporter said
 * @param {string} errors Playwright's error output held back
 */
function exitCodeOf(code, signal, outcome, errors) {
  const refused = code === 1 && !signal && outcome.exitCode === undefined ? oneLine(errors) : undefined;
  // The reporter starts before global setup: a run that ended before it sent nothing. Playwright refused
  // its command line (an unknown option, --workers=0, a --project or --reporter it cannot find).
  if (refused?.message !== undefined && !outcome.started) {
    process.stderr.write(refused.before);
    // An error raised in the suite's own code is no refusal of the command line, nor a fault of the settings.
    const own = ownFrame(errors);
    if (own !== undefined) {
      process.stderr.write(
        `conformance: no verdict: the suite stopped on an error of its own before it started (${refused.message}; at ${own}); the settings are not at fault: report it with this line\n`,
      );
      return EXIT.noVerdict;
    }
    return refuseRun(`Playwright refused to start: ${refused.message}`);
  }
  process.stderr.write(errors);
  // The run said why in its one line: a configuration error (2), or reports it could not write as it started (3).
  if (code === EXIT.configuration || (code === EXIT.noVerdict && outcome.exitCode === undefined)) return code;
  if (outcome.exitCode !== undefined) return outcome.exitCode;
  // A runner killed from outside, most often by the system when memory ran out, has no exit code to show.
  const end = signal ? `Playwright was killed by ${signal}${signal === 'SIGKILL' ? ', perhaps for lack of memory' : ''}` : `Playwright exited ${code}`;
  process.stderr.write(`conformance: no verdict: the run ended before its report (${end})\n`);
  return EXIT.noVerdict;
}

/**
 * Takes the suite's own option `--name value` (or `--name=value`) out of the arguments, wherever it stands among
 * Playwright's, as node:util's parseArgs reads it: its value, and the arguments left for Playwright. A missing or
 * empty value is refused, and so is the option given twice, whose second value would otherwise reach Playwright.
 * @param {string[]} args
 * @param {string} name
 * @param {string} needs what the value is, for the refusal
 * @returns {{ value?: string, rest: string[] }}
 */
function takeOption(args, name, needs) {
  const { tokens } = parseArgs({ args, options: { [name]: { type: 'string' } }, strict: false, allowPositionals: true, tokens: true });
  const found = tokens.filter((token) => token.kind === 'option' && token.name === name);
  if (found.length === 0) return { rest: args };
  if (found.length > 1) return refuse(`--${name} is given ${found.length} times: give it once`);
  const [{ index, value, inlineValue }] = found;
  if (value === undefined || value === '') return refuse(`--${name} needs ${needs}`);
  return { value, rest: args.filter((_, i) => i !== index && (inlineValue || i !== index + 1)) };
}

/**
 * Playwright's --shard splits a run's tests; the suite splits its targets, each judged whole in one shard, every
 * request sent once: --shard=i/n is taken as CONFORMANCE_SHARD=i/n, and is no option of Playwright's.
 */
function sharded(args) {
  const { value, rest } = takeOption(args, 'shard', 'i/n, such as --shard=2/3');
  if (value !== undefined) process.env.CONFORMANCE_SHARD = value;
  return rest;
}

/**
 * A failed clause's requests sent this many more times (--confirm N), taken as CONFORMANCE_CONFIRM=N: a clause
 * that fails some of the time is flaky, no verdict. Playwright has no --confirm.
 */
function confirmed(args) {
  const { value, rest } = takeOption(args, 'confirm', "how many more times to send a failed clause's requests, such as --confirm 2");
  if (value !== undefined) process.env.CONFORMANCE_CONFIRM = value;
  return rest;
}

/**
 * The base URL from the command line (`admin-api-conformance https://host`, `--base-url https://host`), taken as
 * CONFORMANCE_BASE_URL: the one setting that is no secret. Tokens come from the environment or a file only.
 */
function baseUrlGiven(args) {
  const { value, rest } = takeOption(args, 'base-url', "the deployment's base URL, such as --base-url https://unleash.example.com");
  if (value !== undefined) process.env.CONFORMANCE_BASE_URL = value;
  return rest;
}

const COMMANDS = ['run', 'merge', 'verify', 'diff', 'document', 'history', 'trend', 'reference', 'serve', 'help'];

/**
 * The options of `playwright test` (its --help, which a self-test compares with this list), and whether each takes a
 * value: `required`, `optional` or `none`. Anything else is refused before Playwright sees it, by its name alone:
 * Playwright would quote the whole argument, and `--admin-token=SECRET` would reach the terminal and the reports.
 */
const PLAYWRIGHT_OPTIONS = {
  ...Object.fromEntries(
    ['--add-reporter', '--browser', '-c', '--config', '-g', '--grep', '-G', '--grep-invert', '--global-timeout', '-j', '--workers', '--last-failed-file']
      .concat(['--max-failures', '--output', '--project', '--repeat-each', '--reporter', '--retries', '--run-agents', '--shard', '--test-list'])
      .concat(['--test-list-invert', '--timeout', '--trace', '--tsconfig', '--ui-host', '--ui-port', '--update-source-method'])
      .map((name) => [name, 'required']),
  ),
  ...Object.fromEntries(['--debug', '--only-changed', '--shuffle', '-u', '--update-snapshots'].map((name) => [name, 'optional'])),
  ...Object.fromEntries(
    ['--fail-on-flaky-tests', '--forbid-only', '--fully-parallel', '--headed', '--ignore-snapshots', '--last-failed', '--list', '-x']
      .concat(['--no-deps', '--pass-with-no-tests', '--quiet', '--ui', '-h', '--help'])
      .map((name) => [name, 'none']),
  ),
};

/** An option's name as the refusal may show it: a plain word, never what could be a value typed in its place. */
const shownName = (/** @type {string} */ name) => (/^--?[a-z][a-z0-9-]{0,40}$/i.test(name) ? name : 'an option (its name is not shown either)');

/**
 * Why these arguments cannot go to Playwright, or undefined: an option Playwright does not have, or, before `--`, a
 * word that is neither the command, the base URL nor an option's value. No value is ever quoted: it may be a token.
 * @param {string[]} args
 * @param {boolean} filters whether a word may be a test filter (after `--`)
 */
function strayArgument(args, filters) {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('-') || arg === '-') {
      if (filters) continue;
      return "a stray argument (not shown, as it may be a secret) stands after the command or the base URL: tokens go in the environment or a target file, and Playwright's test filters after --";
    }
    const [name, inline] = [arg.split('=')[0], arg.includes('=')];
    const takes = PLAYWRIGHT_OPTIONS[/** @type {keyof typeof PLAYWRIGHT_OPTIONS} */ (name)];
    if (takes === undefined) {
      const secret = /token|secret|key|password|auth/i.test(name)
        ? ': tokens go in CONFORMANCE_ADMIN_TOKEN (or the other CONFORMANCE_ variables), the environment or a target file'
        : '';
      return `unknown option ${shownName(name)} (its value is not shown)${secret}; admin-api-conformance --help lists the suite's own options, and npx playwright test --help Playwright's`;
    }
    // An option's value is no argument of its own.
    if (!inline && takes !== 'none' && args[i + 1] !== undefined && !args[i + 1].startsWith('-')) i++;
  }
  return undefined;
}

/** Playwright's options that start its UI mode, which serves until someone closes it: a run would never end. */
const UI_MODE = ['--ui', '--ui-host', '--ui-port'];

/**
 * A word that is no command: say so, and which was meant, rather than hand it to Playwright as a test filter. The
 * nearest command is found by the suite's own measure (harness/files/closest.ts), which a clone without tsx cannot
 * load: there the line names every command instead.
 */
function unknownCommand(word) {
  const files = suiteModule('harness/files/closest');
  const meant = files?.closest(word, COMMANDS);
  if (meant !== undefined) return refuse(`unknown command "${word}"; did you mean "${meant}"?`);
  return refuse(
    `unknown command "${word}": the commands are run, merge, verify, diff, document, history, trend, reference, serve and help, and come first; Playwright's test filters go after --`,
  );
}

function main(argv) {
  const split = argv.indexOf('--');
  const [ours, passed] = split < 0 ? [argv, []] : [argv.slice(0, split), argv.slice(split + 1)];
  if (ours.includes('--help') || ours.includes('-h')) return void process.stdout.write(usage());
  if (ours.includes('--version')) return void process.stdout.write(`${version()}\n`);
  // The command is the first word, when it is no option: everything else is Playwright's, before -- or after it
  // (`npm run conformance -- --grep @MUST` arrives without its --). A base URL, which is no secret, may stand
  // in its place (the command is then run) or follow --base-url.
  const isUrl = (/** @type {string | undefined} */ word) => word !== undefined && /^https?:\/\//i.test(word);
  const named = ours[0] !== undefined && !ours[0].startsWith('-') && !isUrl(ours[0]);
  const command = named ? ours[0] : 'run';
  if (!COMMANDS.includes(command)) return unknownCommand(command);
  if (command === 'help') return void process.stdout.write(usage());
  const given = named ? ours.slice(1) : ours;
  const rest = command === 'run' ? confirmed(baseUrlGiven(isUrl(given[0]) ? ['--base-url', ...given] : given)) : given;
  if (command !== 'run') return runModule(command, [...rest, ...passed]);
  const stray = strayArgument(rest, false) ?? strayArgument(passed, true);
  if (stray) return refuseRun(stray);
  // Playwright's own help, asked for after --: shown as Playwright gives it, which is no run.
  if (passed.includes('--help') || passed.includes('-h')) return playwrightHelp();
  // The tests a filter selects, listed: nothing is sent or judged, and the report folder is left as it is.
  if ([...rest, ...passed].includes('--list')) return playwrightList([...rest, ...passed]);
  // Options before -- are Playwright's too: `npm run conformance -- --grep @MUST` arrives without its --.
  const ui = [...rest, ...passed].find((arg) => UI_MODE.some((option) => arg === option || arg.startsWith(`${option}=`)));
  if (ui) return refuseRun(`${ui.split('=')[0]} starts Playwright's UI mode, which waits for a person and gives no verdict: run without it`);
  const config = [...rest, ...passed].find((arg) => ['-c', '--config'].some((option) => arg === option || arg.startsWith(`${option}=`)));
  if (config) return refuseRun(`${config.split('=')[0]} names another Playwright configuration; the command runs the suite's own: drop it`);
  return runPlaywright(['test', '--config', CONFIG, ...withOurReporter(sharded([...rest, ...passed]))]);
}

/**
 * Runs one of the suite's own commands (verify, merge, diff, document, history, trend, reference, serve) in this process: a clone loads their
 * TypeScript through tsx (a development dependency of a clone), the installed package its build.
 */
function runModule(name, args) {
  const commands = suiteModule('run/commands');
  // A clone installed without its development dependencies (npm ci --omit=dev, NODE_ENV=production) has no tsx.
  if (commands === undefined) return refuse(`${name} from a clone needs tsx, one of its development dependencies: run npm ci there without --omit=dev`);
  const io = { output: { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) }, env: process.env, cwd: process.cwd() };
  // The reference server and the exporter serve until stopped: Ctrl+C, SIGTERM or a closed terminal stop them cleanly.
  if (name === 'reference' || name === 'serve') Object.assign(io, { signal: stopSignal() });
  // The code is set, not exited with: output to a pipe is written after this, and an exit would cut it.
  commands.COMMANDS[name](args, io).then(
    (/** @type {number} */ code) => {
      process.exitCode = code;
    },
    (/** @type {Error} */ error) => {
      process.stderr.write(
        `admin-api-conformance ${name}: no verdict: the suite stopped on an error of its own (${String(error?.message ?? error).replace(/[^\x20-\x7e]/g, '?')}); report it with this line\n`,
      );
      process.exitCode = EXIT.noVerdict;
    },
  );
}

/**
 * A signal that aborts on SIGINT, SIGTERM or SIGHUP, which then no longer end the process by themselves, or once the
 * npm that started the command is gone (npm stopped alone passes no signal on).
 */
function stopSignal() {
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => stop.abort());
  stopWithNpm(() => stop.abort());
  return stop.signal;
}

/** Where a module is, or undefined when it is not installed. */
function resolved(id) {
  try {
    return require.resolve(id);
  } catch {
    return undefined;
  }
}

/**
 * One of the suite's own modules in this process: the installed package's build, or in a clone its TypeScript
 * through tsx (undefined when the clone was installed without it).
 * @param {string} name its path below the suite, without extension
 */
function suiteModule(name) {
  if (EXT === '.js') return require(path.join(SUITE, `${name}.js`));
  const tsx = resolved('tsx/cjs/api');
  return tsx === undefined ? undefined : require(tsx).require(path.join(SUITE, `${name}.ts`), __filename);
}

/**
 * The options of Playwright's test command, as Playwright lists them. No verdict, exit code 3: a gate whose
 * command line asks for help by mistake must not go green without a run.
 */
function playwrightHelp() {
  spawnSync(process.execPath, [PLAYWRIGHT_CLI, 'test', '--help'], { stdio: 'inherit' });
  process.stderr.write("conformance: no verdict: -- --help shows Playwright's options and runs nothing\n");
  process.exit(EXIT.noVerdict);
}

/**
 * Playwright's list of the tests these options select, in the words of the reporter asked for, the list
 * reporter otherwise: never the suite's, which would write a report no run judged. No verdict, exit code 3
 * (a configuration error, 2, as a run would have it): a listing judges nothing.
 */
function playwrightList(args) {
  const reporter = args.some((arg) => arg === '--reporter' || arg.startsWith('--reporter=')) ? [] : ['--reporter=list'];
  const list = spawnSync(process.execPath, [PLAYWRIGHT_CLI, 'test', '--config', CONFIG, ...args, ...reporter], { stdio: 'inherit' });
  if (list.status === EXIT.configuration) process.exit(EXIT.configuration);
  process.stderr.write('conformance: no verdict: --list lists the tests a run would replay and judges nothing\n');
  process.exit(EXIT.noVerdict);
}

/**
 * A run refused before the suite read its configuration. The report folder is still taken, as for the suite's own
 * configuration errors, so that no earlier verdict stands there (a report published after a failed step would
 * show it); the line says why. Exit code 2 either way.
 */
function refuseRun(message) {
  const commands = suiteModule('run/commands');
  if (commands === undefined) process.stderr.write(`conformance: configuration error: ${message}\n`);
  else commands.refuseCommandLine(message, process.env, process.cwd(), { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) });
  process.exit(EXIT.configuration);
}

/**
 * A mistake on the command line: one line, exit code 2.
 * @returns {never}
 */
function refuse(message) {
  process.stderr.write(`admin-api-conformance: ${message}\n`);
  process.exit(EXIT.configuration);
}

main(process.argv.slice(2));
