import { ConfigError } from '../files/config-error.ts';
import type { Source } from './sources.ts';

/** The product under test, as its vendor states it: the target file's `product:` block, or the PRODUCT_VARIABLES below. */
export interface Product {
  name: string;
  version?: string;
  vendor?: string;
  contact?: string;
  /** Where `version` comes from, once a run has taken it: stated by the vendor, or read from the target. */
  versionFrom?: 'stated' | 'read';
  /** What reading the version from the target gave, when the run was asked to (CONFORMANCE_READ_PRODUCT_VERSION). */
  read?: ProductRead;
}

/** The one GET outside the document a run may send to learn the product's version: a fact recorded, never judged. */
export interface ProductRead {
  /** `GET <path>`, as sent. */
  request: string;
  outsideDocument: true;
  status?: number;
  /** The version the target gave, when it gave one. */
  version?: string;
  /** The version the settings stated, when it differs from the one read. */
  stated?: string;
  /** Why no version was read, in words. */
  problem?: string;
}

/** Where a product says its own version: a path of its own API and the field of its JSON answer that holds it. */
export interface VersionReader {
  /** The value of CONFORMANCE_READ_PRODUCT_VERSION that names it. */
  reader: string;
  /** The product's name, when the settings state none. */
  name: string;
  path: string;
  field: string;
}

/** The products whose version the suite knows how to read. */
export const VERSION_READERS: Record<string, VersionReader> = {
  // Unleash's admin UI reads its own configuration here; `version` is the server's release.
  unleash: { reader: 'unleash', name: 'Unleash', path: '/api/admin/ui-config', field: 'version' },
};

export const READ_VERSION_VARIABLE = 'CONFORMANCE_READ_PRODUCT_VERSION';

/** The reader the settings ask for (CONFORMANCE_READ_PRODUCT_VERSION), none by default: the GET it sends is outside the document. */
export function versionReaderOf(source: Source): VersionReader | undefined {
  const asked = source[READ_VERSION_VARIABLE];
  if (asked === undefined || asked === '') return undefined;
  const reader = VERSION_READERS[asked.trim().toLowerCase()];
  if (!reader) {
    const shown = /^[\w.-]{1,40}$/.test(asked) ? `"${asked}"` : 'a value (not shown, as it may be a secret)';
    throw new ConfigError(`${READ_VERSION_VARIABLE} is ${shown}; give one of ${Object.keys(VERSION_READERS).join(', ')}, or leave it unset`);
  }
  return reader;
}

/** The keys of a target file's `product:` block and the variables that give the same. */
export const PRODUCT_VARIABLES: Record<'name' | 'version' | 'vendor' | 'contact', string> = {
  name: 'CONFORMANCE_PRODUCT_NAME',
  version: 'CONFORMANCE_PRODUCT_VERSION',
  vendor: 'CONFORMANCE_PRODUCT_VENDOR',
  contact: 'CONFORMANCE_PRODUCT_CONTACT',
};

/** A target file's `product:` block as the variables it stands for. */
export function productSource(block: Record<string, string | number>): Source {
  return Object.fromEntries(Object.entries(block).map(([key, value]) => [PRODUCT_VARIABLES[key as keyof typeof PRODUCT_VARIABLES], String(value)]));
}

/** The product the merged configuration states, if any; a version, vendor or contact without a name says too little. */
export function productOf(source: Source): Product | { error: string } | undefined {
  const given = Object.entries(PRODUCT_VARIABLES).filter(([, variable]) => source[variable] !== undefined);
  if (given.length === 0) return undefined;
  if (source.CONFORMANCE_PRODUCT_NAME === undefined)
    return { error: `${given[0][1]} is set but CONFORMANCE_PRODUCT_NAME is not: name the product (product: name: in a target file)` };
  return Object.fromEntries(given.map(([key, variable]) => [key, source[variable]])) as unknown as Product;
}
