import type { KeyObject } from 'node:crypto';
import { ConfigError } from '../files/config-error.ts';
import { checkRedactable } from '../secrets/secret-rule.ts';
import type { SigningKind } from '../secrets/signing-key.ts';
import type { NetworkSettings } from '../transport/network.ts';
import { parseBaseUrl, parseOpenapiPath } from './address.ts';
import { boundsOf, type Bounds } from './bounds.ts';
import { ciRunUrl } from './ci.ts';
import { parseClaim } from './claim.ts';
import { deviationsFile, deviationsOf, type KnownDeviation } from './deviations.ts';
import { checkTargetSettings, embeddedTarget, type TargetIdentity } from './embedded.ts';
import { parseNetwork } from './network-settings.ts';
import { productOf, versionReaderOf, type Product, type VersionReader } from './product.ts';
import { checkQuarantine, confirmingOf, type Confirming } from './quarantine.ts';
import { foldersOf } from './report-folder.ts';
import { readSettings, type Settings } from './settings.ts';
import { signingOf } from './signing.ts';
import { checkTargetName } from './target-name.ts';
import type { Source } from './sources.ts';
import { placed, sourceOf, type TargetEntry } from './target-file.ts';
import { checkDistinctSecrets, checkNotWordsOfTheApi, parseForbidden, parseSignupTokens, parseToken } from './tokens.ts';

// A target's configuration: a pure function of the run's settings (settings.ts) and of the entry that describes
// the target, each concern checked by its own file (README.md lists them). Nothing is read here.

/** Everything the suite needs to know about the deployment it checks. */
export interface TargetConfig extends TargetIdentity, Bounds, Confirming {
  /** True when the run checks the embedded reference implementation. */
  embedded: boolean;
  reportDir: string;
  /** Known deviations of this target: failures of these clauses are reported, not gated on. */
  deviations: KnownDeviation[];
  /** Settings of `.env` that a more explicit source overrides, to be shown once at the start of the run. */
  notices: string[];
  /** How requests reach the target: proxies, a private certificate authority, a client certificate. */
  network: NetworkSettings;
  /** The product under test as the vendor states it, when it does. */
  product?: Product;
  /** Where to read the product's version from the target, when asked (CONFORMANCE_READ_PRODUCT_VERSION). */
  readVersion?: VersionReader;
  /** A folder to write the evidence bundle to, instead of evidence.tar.gz beside the reports (CONFORMANCE_EVIDENCE_DIR). */
  evidenceDir?: string;
  /** Where the target publishes its OpenAPI description, to be fetched and compared with the document (CONFORMANCE_OPENAPI_PATH). */
  openapiPath?: string;
  /** The profiles the run claims (CONFORMANCE_CLAIM, contracts/profiles.yaml); undefined claims every one. */
  claim?: string[];
  /** Set when the run judges an evidence bundle's exchanges instead of asking the target: the bundle as given, and its path. */
  replay?: { bundle: string; file: string };
  /** The key a run with a verdict signs its bundle's attestation with (CONFORMANCE_SIGNING_KEY): a secret, never written. */
  signing?: { key: KeyObject; kind: SigningKind; file: string };
  /** The CI run's page, when the CI service names it: an attestation's url. */
  runUrl?: string;
  /** What the inventory says of the target (a fleet file's `tags`: region, tier, plan…), each a string; scores are given by them. */
  tags?: Record<string, string>;
}

// Their homes are the concerns' files; the run and the checks import them from here.
export { ConfigError };
export { withEmbedded } from './embedded.ts';
export type { Operation } from './tokens.ts';

/** A deployment the settings name: its address and its tokens, each checked. */
function configuredTarget(source: Source, baseUrlRaw: string): TargetIdentity {
  const baseUrl = parseBaseUrl(baseUrlRaw);
  if (!source.CONFORMANCE_ADMIN_TOKEN) throw new ConfigError('CONFORMANCE_ADMIN_TOKEN is required when CONFORMANCE_BASE_URL is set');
  return {
    name: source.CONFORMANCE_TARGET_NAME ?? new URL(baseUrl).host,
    baseUrl,
    adminToken: parseToken('CONFORMANCE_ADMIN_TOKEN', source.CONFORMANCE_ADMIN_TOKEN),
    forbidden: parseForbidden(source),
    signupTokens: parseSignupTokens(source.CONFORMANCE_SIGNUP_TOKENS),
  };
}

/** One target's configuration, checked whole; throws ConfigError, said where its settings were given, before any request is sent. */
export function targetConfig(settings: Settings, entry: TargetEntry): TargetConfig {
  // Where its settings come from is checked first: a mistake of the environment's is no mistake of the file's.
  const layered = sourceOf(settings.variables, entry);
  try {
    return configOf(settings, entry, layered);
  } catch (error) {
    throw placed(error, entry, settings.variables);
  }
}

function configOf(settings: Settings, entry: TargetEntry, { source, notices }: ReturnType<typeof sourceOf>): TargetConfig {
  const { env, cwd, files } = settings;
  checkTargetSettings(source);
  const embedded = source.CONFORMANCE_BASE_URL === undefined;
  const target = embedded ? embeddedTarget(source, env) : configuredTarget(source, source.CONFORMANCE_BASE_URL!);
  if (!embedded) checkTargetName(target.name, source.CONFORMANCE_TARGET_NAME !== undefined, entry.file?.where);
  const product = productOf(source);
  if (product && 'error' in product) throw new ConfigError(product.error);
  const network = parseNetwork(source, env, cwd, files);
  if (!embedded) checkRedactable({ ...target, network });
  if (!embedded) checkNotWordsOfTheApi(target);
  checkDistinctSecrets(source);
  const { reportDir, evidenceDir } = foldersOf(source, cwd);
  const confirming = confirmingOf(source);
  return {
    ...target,
    embedded,
    ...boundsOf(source),
    ...confirming,
    reportDir,
    deviations: checkQuarantine(deviationsOf(source, cwd, files), confirming.quarantineMax, deviationsFile(source, cwd)),
    notices,
    network,
    product,
    readVersion: versionReaderOf(source),
    openapiPath: parseOpenapiPath(source.CONFORMANCE_OPENAPI_PATH),
    evidenceDir,
    claim: parseClaim(source.CONFORMANCE_CLAIM),
    signing: signingOf(source, cwd, settings.signingKeys),
    runUrl: ciRunUrl(env),
    ...(entry.tags && { tags: entry.tags }),
  };
}

/** The configuration of the first target the environment and `.env` in `cwd` describe, read as a run reads them. */
export function loadConfig(env: Source = process.env, cwd: string = process.cwd()): TargetConfig {
  const settings = readSettings(env, cwd);
  return targetConfig(settings, settings.entries[0]);
}
