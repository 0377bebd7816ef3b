import { readSettingFile, type SettingFileRead } from '../files/setting-file.ts';

// The files a target's settings name (a deviations file, a certificate authority, a client certificate and its
// key) are read once, with the settings (settings.ts), however many targets name them: a target's
// configuration is made from what was read, and reads no file itself.

/** Each file the settings name, read whole or with why it cannot be, by the path it is read at. */
export type NamedFiles = ReadonlyMap<string, SettingFileRead>;

/** Reads each file once, in order. */
export function readNamedFiles(files: string[]): NamedFiles {
  return new Map([...new Set(files)].map((file) => [file, readSettingFile(file)]));
}

/** A file the settings name, as it was read with them. */
export function namedFile(files: NamedFiles, file: string): SettingFileRead {
  const read = files.get(file);
  // What a configuration reads, the concern that reads it lists for settings.ts: a file missing here is the suite's mistake.
  if (read === undefined) throw new Error(`${file} was not read with the settings`);
  return read;
}
