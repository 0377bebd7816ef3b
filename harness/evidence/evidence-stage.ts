import path from 'node:path';
import { ArchiveWriter, BUNDLE_ARCHIVE, EXCHANGES } from './bundle.ts';
import type { BundleRecording } from './bundle-recording.ts';
import { exchangesFile, type ExchangesFile } from './exchanges-writer.ts';

// A run's evidence is put together while the run goes on: the judging hands over the redacted recording, whose
// exchanges.json is made (on a thread, when large) and compressed into the archive while the judge runs; the reports
// and the manifest join it when the bundle is written, and the archive stands under its name once whole.

/** A target's evidence as the judging handed it over: its exchanges.json, and the request log written beside the reports. */
export interface StagedEvidence {
  exchanges: ExchangesFile;
  /** requests.json as the judging wrote it, carried into the bundle's reports. */
  requestLog?: string;
  /** The archive under way beside the reports, the exchanges in it; none when the bundle is to be a folder. */
  archive?: ArchiveWriter;
}

const pending = new Map<string, Promise<StagedEvidence>>();

/**
 * Starts putting a target's evidence together from its redacted recording, and the request log written beside its
 * reports; `archive` starts the archive beside the reports as soon as the exchanges are made.
 */
export function stageEvidence(reportDir: string, bundle: BundleRecording, requestLog: string | undefined, archive: boolean): void {
  const staged = exchangesFile(bundle).then((exchanges) => ({
    exchanges,
    requestLog,
    archive: archive ? new ArchiveWriter(path.join(reportDir, BUNDLE_ARCHIVE)).add(new Map([[EXCHANGES, exchanges.bytes]])) : undefined,
  }));
  staged.catch(() => {}); // told by the reporter, which awaits it
  pending.set(reportDir, staged);
}

/** A target's staged evidence, as the judging in this process handed it over; undefined when it handed none. */
export async function stagedEvidence(reportDir: string): Promise<StagedEvidence | undefined> {
  const staged = pending.get(reportDir);
  pending.delete(reportDir);
  return staged;
}

/** A run that did not end leaves no evidence: what was staged is let go, and any archive under way with it. */
export async function discardEvidence(reportDir: string): Promise<void> {
  const staged = await stagedEvidence(reportDir).catch(() => undefined);
  await staged?.archive?.abandon();
}
