import { rmSync } from 'node:fs';
import path from 'node:path';
import { ArchiveWriter, BUNDLE_ARCHIVE, EXCHANGES, STAGING } from './bundle.ts';
import type { BundleRecording } from './bundle-recording.ts';
import { writeExchanges } from './exchanges-writer.ts';
import { makeFolder } from '../files/folders.ts';

// A run's evidence is put together while the run goes on: the judging hands over the redacted recording,
// a thread writes it while the runner judges, the archive is compressed while a worker replays the
// verdicts, and the reporter adds the reports and the manifest at the end. The judging and the reporter
// run in the runner process, and share this module.

/** A target's exchanges as written to its staging folder, and the archive under way when there is one. */
export interface StagedEvidence {
  staging: string;
  /** SHA-256 of the exchanges' bytes, as the manifest names them. */
  digest: string;
  archive?: ArchiveWriter;
}

const pending = new Map<string, Promise<StagedEvidence>>();

async function stage(reportDir: string, bundle: BundleRecording, archive: boolean): Promise<StagedEvidence> {
  const staging = path.join(reportDir, STAGING);
  rmSync(staging, { recursive: true, force: true });
  makeFolder(staging);
  const digest = await writeExchanges(path.join(staging, EXCHANGES), bundle);
  return { staging, digest, archive: archive ? new ArchiveWriter(staging, path.join(reportDir, BUNDLE_ARCHIVE)).add([EXCHANGES]) : undefined };
}

/**
 * Starts putting a target's evidence together from its redacted recording. `archive` starts the archive
 * beside the reports as soon as the exchanges are written.
 */
export function stageEvidence(reportDir: string, bundle: BundleRecording, archive: boolean): void {
  const staged = stage(reportDir, bundle, archive);
  staged.catch(() => {}); // told by the reporter, which awaits it
  pending.set(reportDir, staged);
}

/** A target's staged evidence, as the judging in this process handed it over; undefined when it handed none. */
export async function stagedEvidence(reportDir: string): Promise<StagedEvidence | undefined> {
  const staged = pending.get(reportDir);
  pending.delete(reportDir);
  return staged;
}

/** A run that did not end leaves no evidence: the staging folder and any archive under way go. */
export async function discardEvidence(reportDir: string): Promise<void> {
  const staged = await stagedEvidence(reportDir).catch(() => undefined);
  await staged?.archive?.abandon();
  rmSync(path.join(reportDir, STAGING), { recursive: true, force: true });
}
