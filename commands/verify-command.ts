import { createPrivateKey } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { BundleError } from '../harness/evidence/bundle-error.ts';
import { readBundle } from '../harness/evidence/bundle-reader.ts';
import { attestationFileOf, bundleSubject } from '../harness/evidence/attestation-file.ts';
import { readSettingFile } from '../harness/files/setting-file.ts';
import { verifyingKeyOf } from '../harness/secrets/signing-key.ts';
import { printable, verifyOutput } from './verify-output.ts';
import { verifyBundle, type AttestationToCheck } from '../readers/verify.ts';
import { readArguments } from './arguments.ts';
import type { CommandIO } from './command-io.ts';

// `admin-api-conformance verify <bundle> [--anyway] [--key <public key>] [--attestation <file>]`: 0 when the
// bundle holds (and, with --key, its attestation too), 1 when it does not (each difference named; a missing
// attestation is one), 2 when it cannot be verified here (no bundle that can be read, a key that cannot be
// used, another suite's bundle without --anyway).

const USAGE = 'usage: admin-api-conformance verify <evidence.tar.gz or bundle folder> [--anyway] [--key <public key PEM> [--attestation <file>]]';

/** A mistake in what verify was given: one line, exit code 2. */
class Refusal extends Error {}

/** The arguments: the bundle, --anyway, and the options that take a file (`--key file` or `--key=file`). */
function parse(args: string[]): { where: string; anyway: boolean; key?: string; attestation?: string } {
  const read = readArguments(args, { anyway: 'flag', key: 'value', attestation: 'value' }, USAGE);
  if ('mistake' in read) throw new Refusal(read.mistake);
  if (read.positionals.length !== 1) throw new Refusal(USAGE);
  const [key, attestation] = [read.value('key'), read.value('attestation')];
  if (attestation !== undefined && key === undefined) throw new Refusal('--attestation needs --key, the public key to check it with');
  return { where: read.positionals[0], anyway: read.flag('anyway'), key, attestation };
}

/** Whether a file holds a private key, which no one should hand to verify. */
function holdsPrivateKey(bytes: Buffer): boolean {
  try {
    return createPrivateKey(bytes).type === 'private';
  } catch {
    return false;
  }
}

/** The attestation to check, read within bounds: a missing file is left to verify, which calls it a difference. */
function attestationToCheck(bundle: string, keyFile: string, attestationFile: string | undefined, cwd: string): AttestationToCheck {
  const keyRead = readSettingFile(path.resolve(cwd, keyFile));
  if ('reason' in keyRead) throw new Refusal(`--key: the file ${keyFile} cannot be read (${keyRead.reason})`);
  // A private key would verify too (its public half is in it), but it is a secret that has no business here: said, never used.
  if (holdsPrivateKey(keyRead.bytes))
    throw new Refusal(
      `--key takes the public key that checks the signature; ${keyFile} holds a private key, a secret to keep where the run signs: give its public half (openssl pkey -in <private key> -pubout)`,
    );
  const key = verifyingKeyOf(keyRead.bytes);
  if ('problem' in key) throw new Refusal(`--key: the file ${keyFile} ${key.problem}`);
  const subject = bundleSubject(bundle);
  const file = attestationFile === undefined ? subject.attestation : path.resolve(cwd, attestationFile);
  const read = readSettingFile(file);
  if ('reason' in read && read.reason !== 'ENOENT') throw new Refusal(`the attestation ${file} cannot be read (${read.reason})`);
  return { file, text: 'bytes' in read ? read.bytes.toString('utf8') : undefined, key: key.key, subject };
}

/** Verifies a bundle: its exit code, its lines printed. */
export async function verifyCommand(args: string[], io: CommandIO): Promise<number> {
  try {
    return await verifyGiven(args, io);
  } catch (error) {
    io.output.err(`${printable(`admin-api-conformance verify: ${(error as Error).message}`)}\n`);
    return 2;
  }
}

async function verifyGiven(args: string[], io: CommandIO): Promise<number> {
  let given: ReturnType<typeof parse>;
  let result: ReturnType<typeof verifyBundle>;
  try {
    given = parse(args);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return refused(error.message, io);
  }
  const bundle = path.resolve(io.cwd, given.where);
  try {
    const files = readBundle(bundle);
    const attestation = given.key === undefined ? undefined : attestationToCheck(bundle, given.key, given.attestation, io.cwd);
    result = verifyBundle(files, { anyway: given.anyway, attestation });
  } catch (error) {
    if (error instanceof Refusal) return refused(error.message, io);
    if (!(error instanceof BundleError)) throw error;
    io.output.err(`${printable(`admin-api-conformance verify: ${given.where} cannot be verified: ${error.message}`)}\n`);
    return 2;
  }
  // An attestation beside the bundle says nothing until its signature is checked: said, so that no one takes it as checked.
  if (given.key === undefined && existsSync(attestationFileOf(bundle))) result.attestation = { file: attestationFileOf(bundle) };
  const { lines, exitCode } = verifyOutput(result, given.anyway, given.key !== undefined);
  io.output.out(lines.map((line) => `${line}\n`).join(''));
  return exitCode;
}

/** One line, exit code 2: the usage as it is, anything else named as verify's. */
function refused(message: string, io: CommandIO): number {
  io.output.err(`${printable(message.startsWith('usage:') ? message : `admin-api-conformance verify: ${message}`)}\n`);
  return 2;
}
