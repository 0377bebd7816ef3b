import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ArchiveWriter, BUNDLE_ARCHIVE, EXCHANGES, STAGING, sha256 } from './bundle.ts';
import type { BundleRecording } from './bundle-recording.ts';

// A run's evidence is put together while its tests run. Global setup hands over the recording and goes on;
// the runner, idle while a worker replays the verdicts, redacts and writes the exchanges and starts
// compressing them; the reporter adds the reports and the manifest at the end. Global setup and the
// reporter run in the runner process, and share this module.

/** A target's exchanges as written to its staging folder, and the archive under way when there is one. */
export interface StagedEvidence {
  staging: string;
  /** SHA-256 of the exchanges' bytes, as the manifest names them. */
  digest: string;
  archive?: ArchiveWriter;
}

const pending = new Map<string, Promise<StagedEvidence>>();

/**
 * Writes the recording an exchange at a time: one JSON text of every body at once would pass the longest
 * string a JavaScript engine holds (about 512 MiB) for a target with two large lists. A body that several
 * answers brought is turned into JSON once. Written under another name and renamed when whole.
 */
async function writeExchanges(file: string, bundle: BundleRecording): Promise<string> {
  const { exchanges, ...rest } = bundle;
  const bodies = new Map<string, string>();
  const hash = createHash('sha256');
  const partial = `${file}.partial`;
  const fd = openSync(partial, 'w');
  const write = (text: string) => {
    hash.update(text);
    writeSync(fd, text);
  };
  try {
    write(`${JSON.stringify(rest).slice(0, -1)},"exchanges":[\n`);
    for (const [i, { bodyText, ...exchange }] of exchanges.entries()) {
      const head = `${i === 0 ? '' : ',\n'}${JSON.stringify(exchange)}`;
      if (bodyText === undefined) write(head);
      else {
        if (!bodies.has(bodyText)) bodies.set(bodyText, JSON.stringify(bodyText));
        write(`${head.slice(0, -1)},"bodyText":`);
        write(bodies.get(bodyText)!);
        write('}');
      }
      // The workers wait on the runner between tests: it lets them in between exchanges.
      await nextTurn();
    }
    write('\n]}\n');
  } finally {
    closeSync(fd);
  }
  renameSync(partial, file);
  return hash.digest('hex');
}

async function stage(reportDir: string, build: () => BundleRecording, archive: boolean): Promise<StagedEvidence> {
  await nextTurn();
  const staging = path.join(reportDir, STAGING);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const digest = await writeExchanges(path.join(staging, EXCHANGES), build());
  return { staging, digest, archive: archive ? new ArchiveWriter(staging, path.join(reportDir, BUNDLE_ARCHIVE)).add([EXCHANGES]) : undefined };
}

/**
 * Starts putting a target's evidence together, after global setup has returned; `build` redacts the
 * recording. `archive` starts the archive beside the reports as soon as the exchanges are written.
 */
export function stageEvidence(reportDir: string, build: () => BundleRecording, archive: boolean): void {
  const staged = stage(reportDir, build, archive);
  staged.catch(() => {}); // told by the reporter, which awaits it
  pending.set(reportDir, staged);
}

/**
 * A target's staged evidence: as this process staged it, or, for a reporter that did not run the global setup
 * that staged it, as it stands whole in the staging folder. Undefined when there is none.
 */
export async function stagedEvidence(reportDir: string): Promise<StagedEvidence | undefined> {
  const staged = pending.get(reportDir);
  pending.delete(reportDir);
  if (staged) return staged;
  const staging = path.join(reportDir, STAGING);
  const exchanges = path.join(staging, EXCHANGES);
  return existsSync(exchanges) ? { staging, digest: sha256(readFileSync(exchanges)) } : undefined;
}

/** A run that did not end leaves no evidence: the staging folder and any archive under way go. */
export async function discardEvidence(reportDir: string): Promise<void> {
  const staged = await stagedEvidence(reportDir).catch(() => undefined);
  await staged?.archive?.abandon();
  rmSync(path.join(reportDir, STAGING), { recursive: true, force: true });
}
