import type { Source } from './sources.ts';

/** The product under test, as its vendor states it: the target file's `product:` block, or the PRODUCT_VARIABLES below. */
export interface Product {
  name: string;
  version?: string;
  vendor?: string;
  contact?: string;
}

/** The keys of a target file's `product:` block and the variables that give the same. */
export const PRODUCT_VARIABLES: Record<keyof Product, string> = {
  name: 'CONFORMANCE_PRODUCT_NAME',
  version: 'CONFORMANCE_PRODUCT_VERSION',
  vendor: 'CONFORMANCE_PRODUCT_VENDOR',
  contact: 'CONFORMANCE_PRODUCT_CONTACT',
};

/** A target file's `product:` block as the variables it stands for. */
export function productSource(block: Record<string, string | number>): Source {
  return Object.fromEntries(Object.entries(block).map(([key, value]) => [PRODUCT_VARIABLES[key as keyof Product], String(value)]));
}

/** The product the merged configuration states, if any; a version, vendor or contact without a name says too little. */
export function productOf(source: Source): Product | { error: string } | undefined {
  const given = Object.entries(PRODUCT_VARIABLES).filter(([, variable]) => source[variable] !== undefined);
  if (given.length === 0) return undefined;
  if (source.CONFORMANCE_PRODUCT_NAME === undefined)
    return { error: `${given[0][1]} is set but CONFORMANCE_PRODUCT_NAME is not: name the product (product: name: in a target file)` };
  return Object.fromEntries(given.map(([key, variable]) => [key, source[variable]])) as unknown as Product;
}
