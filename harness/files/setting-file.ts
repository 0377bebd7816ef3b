import { readFileSync, statSync } from 'node:fs';

/** The most a file of settings (a target file, `.env`, deviations, a certificate) may hold; the largest real ones hold kilobytes. */
export const MAX_SETTING_FILE_BYTES = 16 * 1024 * 1024;

/** A file of settings as read: its bytes, or why it cannot be read (Node's error code, or words). */
export type SettingFileRead = { bytes: Buffer } | { reason: string };

/**
 * A file the configuration names, read whole, or why it cannot be: Node's error code, or words. Only a
 * regular file is opened, since opening a FIFO waits for a writer and a device may never end.
 */
export function readSettingFile(file: string): SettingFileRead {
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) return { reason: 'EISDIR' };
    if (!stat.isFile()) return { reason: 'not a regular file' };
    if (stat.size > MAX_SETTING_FILE_BYTES) return { reason: `larger than ${MAX_SETTING_FILE_BYTES / 1024 / 1024} MiB` };
    return { bytes: readFileSync(file) };
  } catch (error) {
    return { reason: (error as NodeJS.ErrnoException).code ?? 'unreadable' };
  }
}
