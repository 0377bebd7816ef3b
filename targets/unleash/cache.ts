import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { atInterrupt, log, runChecked } from './supervisor.ts';

/** Installs kept between runs, outside the project tree. */
export const CACHE_ROOT = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'admin-api-conformance');

const MARKER = '.installed.json';

export interface UnleashInstall {
  version: string;
  serverJs: string;
  /** The Node that runs this version: the machine's, or Node 22 from the cache where `engines` needs it. */
  nodeBin: string;
}

/** npm without the loader flags tsx leaves in NODE_OPTIONS. */
function npmEnv(): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _ignored, ...env } = process.env;
  return { ...env, npm_config_update_notifier: 'false' };
}

/**
 * `npm install name@spec` into `dir`, once. It installs into a scratch folder renamed into place on
 * success, so that an interrupted install is never taken for a complete one.
 */
async function installOnce(dir: string, name: string, spec: string): Promise<string> {
  const packageDir = path.join(dir, 'node_modules', name);
  if (existsSync(path.join(dir, MARKER))) return packageDir;
  const scratch = `${dir}.tmp-${process.pid}`;
  const withdraw = atInterrupt(async () => rmSync(scratch, { recursive: true, force: true }));
  try {
    mkdirSync(scratch, { recursive: true });
    writeFileSync(path.join(scratch, 'package.json'), `${JSON.stringify({ private: true, dependencies: { [name]: spec } })}\n`);
    log(`installing ${name}@${spec} into ${dir} (once; later runs reuse it)`);
    await runChecked(`npm install ${name}@${spec}`, 'npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: scratch,
      env: npmEnv(),
      timeoutMs: 15 * 60_000,
    });
    writeFileSync(path.join(scratch, MARKER), `${JSON.stringify({ name, spec, installedAt: new Date().toISOString() })}\n`);
    if (!existsSync(path.join(dir, MARKER))) {
      rmSync(dir, { recursive: true, force: true });
      renameSync(scratch, dir);
    }
    return packageDir;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    withdraw();
  }
}

/** A range such as `7.x` names its highest published version; an exact version names itself. */
async function resolveVersion(spec: string): Promise<string> {
  if (/^\d+\.\d+\.\d+$/.test(spec)) return spec;
  if (!/^[\w.^~*<>= -]+$/.test(spec)) throw new Error(`"${spec}" is not an unleash-server version or range (e.g. 8.2.0, 7.x)`);
  const output = await runChecked(`npm view unleash-server@${spec}`, 'npm', ['view', `unleash-server@${spec}`, 'version', '--json'], {
    env: npmEnv(),
    timeoutMs: 120_000,
  });
  const found = [JSON.parse(output)].flat() as string[];
  // npm's own choice would skip versions whose engines refuse the Node running npm; this tool brings Node 22 itself.
  const newest = found.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).at(-1);
  if (!newest) throw new Error(`no unleash-server version matches "${spec}"`);
  return newest;
}

/** Node 22 from the npm package `node-linux-<arch>`, for versions whose engines refuse the machine's Node. */
async function node22(): Promise<string> {
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch))
    throw new Error(`Node 22 is fetched only for Linux x64 and arm64, not ${process.platform}/${process.arch}`);
  const name = `node-linux-${process.arch}`;
  return path.join(await installOnce(path.join(CACHE_ROOT, 'node22'), name, '22'), 'bin', 'node');
}

export async function installUnleash(spec: string): Promise<UnleashInstall> {
  const version = await resolveVersion(spec);
  const dir = await installOnce(path.join(CACHE_ROOT, 'unleash', version), 'unleash-server', version);
  const engines = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { engines?: { node?: string } }).engines?.node;
  // The semver that unleash-server depends on judges its own engines range.
  const semver = createRequire(path.join(dir, 'package.json'))('semver') as { satisfies(version: string, range: string): boolean };
  const nodeBin = !engines || semver.satisfies(process.versions.node, engines) ? process.execPath : await node22();
  if (nodeBin !== process.execPath) log(`unleash-server@${version} needs Node ${engines}: Node 22 from ${path.dirname(path.dirname(nodeBin))}`);
  return { version, serverJs: path.join(dir, 'dist', 'server.js'), nodeBin };
}
