import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import path from 'node:path';
import { ConfigError } from '../files/config-error.ts';
import type { NetworkSettings } from '../transport/network.ts';
import { namedFile, type NamedFiles } from './named-files.ts';
import type { Source } from './sources.ts';

// A target's network settings: how requests reach it on a staging network (the environment's proxies, a private
// certificate authority, a client certificate). Their files are read with the settings (networkFiles names them to
// settings.ts) and each is checked here, before any request.

/** The variables of the environment outside CONFORMANCE_ that say how the network is reached. */
const NETWORK_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'NODE_EXTRA_CA_CERTS'];
const networkEnvironment = (env: Source): Source =>
  Object.fromEntries(NETWORK_VARIABLES.filter((v) => env[v] !== undefined && env[v] !== '').map((v) => [v, env[v]]));

/** The target's settings with the environment's network variables beneath them. */
const networkSource = (source: Source, env: Source): Source => ({ ...networkEnvironment(env), ...source });

/** The certificate authority's file, and NODE_EXTRA_CA_CERTS's, which Node stops reading once the suite names its own. */
function authorityFiles(source: Source, cwd: string): { caFile: string; extra?: string } | undefined {
  if (source.CONFORMANCE_CA_FILE === undefined) return undefined;
  return { caFile: path.resolve(cwd, source.CONFORMANCE_CA_FILE), extra: source.NODE_EXTRA_CA_CERTS };
}

/** The client certificate's file and its key's, when both are given. */
function clientFiles(source: Source, cwd: string): { certFile: string; keyFile: string } | undefined {
  const [certRaw, keyRaw] = [source.CONFORMANCE_CLIENT_CERT, source.CONFORMANCE_CLIENT_KEY];
  if (certRaw === undefined || keyRaw === undefined) return undefined;
  return { certFile: path.resolve(cwd, certRaw), keyFile: path.resolve(cwd, keyRaw) };
}

/** The files a target's network settings name, for settings.ts to read once. */
export function networkFiles(source: Source, env: Source, cwd: string): string[] {
  const all = networkSource(source, env);
  const authority = authorityFiles(all, cwd);
  const client = clientFiles(all, cwd);
  return [authority?.caFile, authority?.extra, client?.certFile, client?.keyFile].filter((file) => file !== undefined);
}

function readPem(variable: string, file: string, files: NamedFiles): string {
  const read = namedFile(files, file);
  if ('reason' in read) throw new ConfigError(`${variable}: the file ${file} cannot be read (${read.reason})`);
  return read.bytes.toString('utf8');
}

function readCertificate(variable: string, file: string, files: NamedFiles): string {
  const pem = readPem(variable, file, files);
  try {
    new X509Certificate(pem);
  } catch {
    throw new ConfigError(`${variable}: the file ${file} holds no certificate in PEM form`);
  }
  return pem;
}

function readClientCertificate(source: Source, cwd: string, files: NamedFiles): NetworkSettings['clientCertificate'] {
  const [certRaw, keyRaw] = [source.CONFORMANCE_CLIENT_CERT, source.CONFORMANCE_CLIENT_KEY];
  if (certRaw === undefined && keyRaw === undefined) return undefined;
  const given = clientFiles(source, cwd);
  if (given === undefined)
    throw new ConfigError(
      `CONFORMANCE_CLIENT_CERT and CONFORMANCE_CLIENT_KEY go together: set ${certRaw === undefined ? 'CONFORMANCE_CLIENT_CERT' : 'CONFORMANCE_CLIENT_KEY'} too`,
    );
  const { certFile, keyFile } = given;
  const cert = readCertificate('CONFORMANCE_CLIENT_CERT', certFile, files);
  const key = readPem('CONFORMANCE_CLIENT_KEY', keyFile, files);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw new ConfigError(`CONFORMANCE_CLIENT_KEY: the file ${keyFile} holds no unencrypted private key in PEM form`);
  }
  if (!new X509Certificate(cert).checkPrivateKey(privateKey))
    throw new ConfigError(`CONFORMANCE_CLIENT_KEY: the key in ${keyFile} does not belong to the certificate in ${certFile}`);
  return { certFile, keyFile, cert, key };
}

/** A proxy variable's value, checked; never quoted in a message, as it may carry a password. */
function proxyVariable(source: Source, name: string): string | undefined {
  const variable = source[name.toLowerCase()] !== undefined ? name.toLowerCase() : name;
  const raw = source[variable];
  if (raw === undefined || name === 'NO_PROXY') return raw;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${variable} is not an absolute URL; give one such as http://proxy.example.com:3128`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${variable} must start with http:// or https://`);
  return raw;
}

/** NODE_EXTRA_CA_CERTS's certificates, beside the suite's own authority; one that cannot be read Node itself warns of at start-up. */
function extraCertificates(file: string | undefined, files: NamedFiles): string[] {
  if (file === undefined) return [];
  const read = namedFile(files, file);
  return 'bytes' in read ? [read.bytes.toString('utf8')] : [];
}

/** How requests reach the target: from its settings, the environment's network variables, and the files read with them. */
export function parseNetwork(target: Source, env: Source, cwd: string, files: NamedFiles): NetworkSettings {
  const source = networkSource(target, env);
  const proxy = { http: proxyVariable(source, 'HTTP_PROXY'), https: proxyVariable(source, 'HTTPS_PROXY'), noProxy: proxyVariable(source, 'NO_PROXY') };
  const authority = authorityFiles(source, cwd);
  const ca = authority && [readCertificate('CONFORMANCE_CA_FILE', authority.caFile, files), ...extraCertificates(authority.extra, files)];
  return { proxy, caFile: authority?.caFile, ca, clientCertificate: readClientCertificate(source, cwd, files) };
}
