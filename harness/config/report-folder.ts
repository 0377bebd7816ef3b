import { existsSync, lstatSync, readFileSync, readdirSync, rmSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../files/config-error.ts';
import { makeFolder, overlap, realPath } from '../files/folders.ts';
import { isUnexpandedHome, type Source } from './sources.ts';

// The report folder of a run: named by the settings (and the evidence folder beside it), then taken for the run
// alone, what an earlier run wrote there cleared.

/** The lock of a report folder: the process id of the run that holds it. */
export const LOCK_FILE = '.conformance-run.lock';

/**
 * What a run writes to its report folder: each of these, and each target's own folder below `targets/`. The
 * folder may be one the user keeps other files in, which a run never touches.
 */
export const RUN_OUTPUT = [
  'conformance.json',
  'index.html',
  'summary.md',
  'badge.svg',
  'junit.xml',
  'ctrf.json',
  'requests.json',
  'metrics.prom',
  'evidence.tar.gz',
  // A signed run's attestation of it (harness/evidence/bundle.ts, ATTESTATION_SUFFIX).
  'evidence.tar.gz.intoto.jsonl',
  '.evidence-staging',
  '.evidence.tar.gz.partial',
];

/**
 * The list of what the run that took the folder last wrote there: the next run removes those, and nothing it
 * did not write, never by name alone (a folder named `targets/` of the user's stays).
 */
export const WRITTEN_FILE = '.conformance-run.json';

/** The most bytes such a list holds; a larger file is not one of this suite's, and nothing is removed for it. */
const WRITTEN_MAX_BYTES = 1 << 20;

/** A name a run writes: one of RUN_OUTPUT, or `targets/<one name>`; nothing that leads elsewhere. */
const isRunOutput = (name: unknown): name is string =>
  typeof name === 'string' && (RUN_OUTPUT.includes(name) || /^targets\/[a-z0-9][a-z0-9.-]*$/.test(name)) && !name.includes('..');

/** What the last run wrote in the folder, by its own list: nothing when there is none, or it is not one. */
function lastWritten(dir: string): string[] {
  const file = path.join(dir, WRITTEN_FILE);
  const stat = lstatSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile() || stat.size > WRITTEN_MAX_BYTES) return [];
  try {
    const read: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const written = (read as { written?: unknown } | null)?.written;
    return Array.isArray(written) ? written.filter(isRunOutput) : [];
  } catch {
    return [];
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** When a process started, in clock ticks since boot (field 22 of Linux's /proc/<pid>/stat); undefined elsewhere. */
function startOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields are counted after the last ')', since the process name may hold spaces and parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** A lock's content: the holder's process id, then its start time where the system tells it. */
const lockOf = (pid: number) => `${[pid, startOf(pid)].filter((v) => v !== undefined).join(' ')}\n`;

/** The most a lock of this suite's holds; a larger file is not one, and is taken over unread. */
const LOCK_MAX_BYTES = 256;

/** The lock's holder as it names itself; undefined when there is no lock. */
function readLock(lock: string): { pid: number; start?: string } | undefined {
  // Only a small regular file is read: a FIFO would never end, and a link would have the lock written elsewhere.
  const stat = lstatSync(lock, { throwIfNoEntry: false });
  if (stat === undefined) return undefined;
  // An empty folder in the lock's place names no run, and holds nothing to lose: it is taken over.
  if (stat.isDirectory() && readdirSync(lock).length === 0) {
    rmdirSync(lock);
    return undefined;
  }
  if (!stat.isFile()) throw new ConfigError(`${lock} is not a file, so no run can hold the folder: remove it, or give another CONFORMANCE_REPORT_DIR`);
  if (stat.size > LOCK_MAX_BYTES) return { pid: Number.NaN };
  const [pid, start] = readFileSync(lock, 'utf8').trim().split(/\s+/);
  return { pid: Number(pid), start };
}

function holderOf(lock: string): number | undefined {
  const held = readLock(lock);
  if (held === undefined) return undefined;
  const { pid, start } = held;
  // A lock of this process's own is live while a run of this process holds the folder (runs in one process,
  // the engine called twice); otherwise it was left by a run of this process that is over.
  if (pid === process.pid) return heldHere.has(path.dirname(lock)) ? pid : undefined;
  if (!(Number.isInteger(pid) && pid > 0 && isAlive(pid))) return undefined;
  // A process id is given again once its process is gone (often soon, in a container): a live process that
  // started at another time than the lock says is not the run that took it.
  const now = startOf(pid);
  // A lock without a start time names no run where the system tells when processes start, since every run writes it
  // there (a lock holding `1`, planted in a checked-out tree, would otherwise block every run for ever); nor, where
  // the system does not tell it, process 1, the system's own first process.
  if (start === undefined) return now === undefined && pid !== 1 ? pid : undefined;
  return now !== undefined && now !== start ? undefined : pid;
}

/** The report folders a run of this process holds now. */
const heldHere = new Set<string>();

/** Folders of virtual file systems: writing reports there fails, or does what no one meant. */
const VIRTUAL = ['/proc', '/sys', '/dev'];

/**
 * The system's own folders (Linux's and macOS's): a run writes its reports among files that are not its own there.
 * A root of a file system and a home folder are refused as well (notOwnFolder).
 */
const SYSTEM_FOLDERS = new Set([
  ...['/bin', '/boot', '/etc', '/home', '/lib', '/lib32', '/lib64', '/libx32', '/media', '/mnt', '/opt', '/root', '/run'],
  ...['/sbin', '/snap', '/srv', '/tmp', '/usr', '/usr/bin', '/usr/lib', '/usr/local', '/usr/sbin', '/usr/share', '/var'],
  ...['/var/lib', '/var/log', '/var/tmp', '/private', '/private/tmp', '/private/var', '/Applications', '/Library'],
  ...['/System', '/Users', '/Volumes'],
]);

/** The home folders of the user this process runs as, as the system and the environment name them. */
function homeFolders(): string[] {
  const homes = [os.homedir()];
  try {
    homes.push(os.userInfo().homedir);
  } catch {
    // no entry for this user in the system's list: the environment's is the one there is
  }
  return homes.filter((home) => home !== '');
}

/** What the folder is when it is no folder a run may take for its own (a root, the system's, a home folder); undefined otherwise. */
function notOwnFolder(dir: string): string | undefined {
  for (const place of new Set([dir, realPath(dir)])) {
    if (path.parse(place).root === place) return 'the root of a file system';
    if (homeFolders().some((home) => place === home || place === realPath(home))) return 'a home folder';
    if (SYSTEM_FOLDERS.has(place)) return "a folder of the system's";
  }
  return undefined;
}

/**
 * The first name this run would write that is in the folder, and that the last run did not write by its own list:
 * a file or a folder of the user's (an `index.html` of a site, a `docs/`), never to be written over.
 */
function userFileIn(dir: string, written: string[]): string | undefined {
  const last = new Set(lastWritten(dir));
  return written.find((name) => !last.has(name) && lstatSync(path.join(dir, name), { throwIfNoEntry: false }) !== undefined);
}

/**
 * Takes the report folder for this run: refuses a root, a system's or a home folder, one another live run holds,
 * and one where a name this run writes is the user's (the last run did not list it), removes what the last run
 * wrote there by that run's own list, lists what this one will write (`written`, names below the folder), and
 * holds it until this process ends. A run killed before it could let go leaves a lock whose process is gone,
 * which the next run takes over.
 */
export function takeReportFolder(dir: string, written: string[] = RUN_OUTPUT): () => void {
  if (VIRTUAL.some((v) => dir === v || dir.startsWith(`${v}/`)))
    throw new ConfigError(`CONFORMANCE_REPORT_DIR ${dir} lies on a virtual file system; give a folder on disk`);
  const notOwn = notOwnFolder(dir);
  if (notOwn !== undefined)
    throw new ConfigError(
      `CONFORMANCE_REPORT_DIR ${dir} is ${notOwn}, where a run would write its reports among files that are not its own; give a folder of its own, such as ./conformance-report`,
    );
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new ConfigError(`CONFORMANCE_REPORT_DIR ${dir} is a file, not a folder`);
  try {
    makeFolder(dir);
  } catch (error) {
    throw new ConfigError(`CONFORMANCE_REPORT_DIR ${dir} cannot be created (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const lock = path.join(dir, LOCK_FILE);
  const holder = holderOf(lock);
  if (holder !== undefined)
    throw new ConfigError(`another run (process ${holder}) is writing to ${dir}; wait for it to end, or give this run another CONFORMANCE_REPORT_DIR`);
  // Nothing is written in the folder, not even the lock, when a file of a name a run writes is the user's.
  const theirs = userFileIn(dir, written.filter(isRunOutput));
  if (theirs !== undefined)
    throw new ConfigError(
      `CONFORMANCE_REPORT_DIR ${dir} holds ${theirs}, which no run of this suite wrote there (${WRITTEN_FILE} does not list it), and a run would write over it: give an empty folder, or one only this suite's runs write to`,
    );
  try {
    writeFileSync(lock, lockOf(process.pid));
  } catch (error) {
    throw new ConfigError(`CONFORMANCE_REPORT_DIR ${dir} is not writable (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  heldHere.add(dir);
  // One listener for every folder held: the exporter, or a script, may hold hundreds at once.
  if (process.listeners('exit').includes(releaseEveryFolder) === false) process.on('exit', releaseEveryFolder);
  const release = () => releaseReportFolder(dir);
  for (const name of lastWritten(dir)) rmSync(path.join(dir, name), { recursive: true, force: true });
  writeFileSync(path.join(dir, WRITTEN_FILE), `${JSON.stringify({ written: written.filter(isRunOutput) }, null, 2)}\n`);
  return release;
}

/** Lets go every folder this process holds: it is ending. */
function releaseEveryFolder(): void {
  for (const dir of heldHere) releaseReportFolder(dir);
}

/** Lets the folder go, when this process holds it. */
export function releaseReportFolder(dir: string): void {
  heldHere.delete(dir);
  const lock = path.join(dir, LOCK_FILE);
  try {
    if (readLock(lock)?.pid === process.pid) unlinkSync(lock);
  } catch {
    // already gone
  }
}

// A folder named by spaces alone is a mistake (a quoted blank), not a place to clear and write reports in.
const FOLDER_VARIABLES = ['CONFORMANCE_REPORT_DIR', 'CONFORMANCE_EVIDENCE_DIR'] as const;

/**
 * The run's report folder and evidence folder as the settings name them, checked: neither blank, nor a `~` the shell
 * did not expand, and apart.
 */
export function foldersOf(source: Source, cwd: string): { reportDir: string; evidenceDir?: string } {
  for (const variable of FOLDER_VARIABLES) {
    if (source[variable] !== undefined && source[variable].trim() === '')
      throw new ConfigError(`${variable} holds only spaces: give a folder, or unset it for the default`);
    // Only a shell expands `~`, and only unquoted: taken as it is, it would make a folder named `~` here.
    if (source[variable] !== undefined && isUnexpandedHome(source[variable]))
      throw new ConfigError(
        `${variable} is ${source[variable]}: the shell did not expand ~ (none does within quotes, in .env or in a CI service's variables); give the folder's path, such as $HOME/reports`,
      );
  }
  const reportDir = path.resolve(cwd, source.CONFORMANCE_REPORT_DIR ?? 'conformance-report');
  const evidenceDir = source.CONFORMANCE_EVIDENCE_DIR ? path.resolve(cwd, source.CONFORMANCE_EVIDENCE_DIR) : undefined;
  if (evidenceDir && overlap(evidenceDir, reportDir))
    throw new ConfigError(
      `CONFORMANCE_EVIDENCE_DIR ${evidenceDir} and CONFORMANCE_REPORT_DIR ${reportDir} overlap: the evidence folder holds the bundle alone, and a run clears its report folder; give two separate folders`,
    );
  return { reportDir, evidenceDir };
}
