import type { KeyObject } from 'node:crypto';
import path from 'node:path';
import { ConfigError } from '../files/config-error.ts';
import { readSettingFile } from '../files/setting-file.ts';
import { signingKeyOf, type SigningKind } from '../secrets/signing-key.ts';
import type { Source } from './sources.ts';

// The key a run with a verdict signs its bundle's attestation with (CONFORMANCE_SIGNING_KEY): read with the
// settings, taken apart at once and its bytes wiped; a target's configuration takes it, or its refusal, from there.

/** The signing key as the settings read it: the key, or why its file cannot be read or holds no such key. */
export type SigningRead = { key: KeyObject; kind: SigningKind } | { reason: string } | { problem: string };

/** The signing keys the settings name, by file. */
export type SigningKeys = ReadonlyMap<string, SigningRead>;

/** The file of the signing key the settings name, if any. */
export const signingKeyFile = (source: Source, cwd: string): string | undefined =>
  source.CONFORMANCE_SIGNING_KEY === undefined ? undefined : path.resolve(cwd, source.CONFORMANCE_SIGNING_KEY);

/** Each file's key, read once; its bytes are wiped once the key is made of them. */
export function readSigningKeys(files: string[]): SigningKeys {
  return new Map(
    [...new Set(files)].map((file): [string, SigningRead] => {
      const read = readSettingFile(file);
      if ('reason' in read) return [file, read];
      const signing = signingKeyOf(read.bytes);
      read.bytes.fill(0);
      return [file, signing];
    }),
  );
}

/** The key that signs a run's attestation, checked before any request; the message names the file, never what it holds. */
export function signingOf(source: Source, cwd: string, keys: SigningKeys): { key: KeyObject; kind: SigningKind; file: string } | undefined {
  const file = signingKeyFile(source, cwd);
  if (file === undefined) return undefined;
  const read = keys.get(file);
  if (read === undefined) throw new Error(`${file} was not read with the settings`);
  if ('reason' in read) throw new ConfigError(`CONFORMANCE_SIGNING_KEY: the file ${file} cannot be read (${read.reason})`);
  if ('problem' in read) throw new ConfigError(`CONFORMANCE_SIGNING_KEY: the file ${file} ${read.problem}`);
  return { ...read, file };
}
