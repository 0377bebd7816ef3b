// The versions a known deviation applies to, as a range of semantic versions in npm's words: `8.2.0`,
// `>=6.10.1 <8.3.0`, `^7.4.1`, `~5.12.0`, and any of these joined by `||`. A small matcher of our own: the
// forms a deviations file needs, each proven by a self-test, and no dependency to declare.

/** A version as three numbers and its pre-release identifiers (`8.2.0-beta.1`: ['beta', '1']). */
interface Version {
  core: [number, number, number];
  pre: string[];
}

type Operator = '<' | '<=' | '>' | '>=' | '=';

interface Comparator {
  operator: Operator;
  version: Version;
}

const VERSION = /^v?(\d{1,9})\.(\d{1,9})\.(\d{1,9})(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** A version, or undefined when the text is not one (`8.2`, `latest`). */
export function parseVersion(text: string): Version | undefined {
  const m = VERSION.exec(text.trim());
  if (!m) return undefined;
  return { core: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ? m[4].split('.') : [] };
}

function compareIdentifiers(a: string, b: string): number {
  const [na, nb] = [/^\d+$/.test(a), /^\d+$/.test(b)];
  if (na && nb) return Number(a) - Number(b);
  if (na !== nb) return na ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Semantic versioning's order: a pre-release comes before its release (8.2.0-beta.1 < 8.2.0). */
export function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a.core[i] !== b.core[i]) return a.core[i] - b.core[i];
  if (a.pre.length === 0 || b.pre.length === 0) return b.pre.length - a.pre.length;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const c = compareIdentifiers(a.pre[i], b.pre[i]);
    if (c !== 0) return c;
  }
  return a.pre.length - b.pre.length;
}

const next = (v: Version, part: 0 | 1 | 2): Version => ({
  core: [part === 0 ? v.core[0] + 1 : v.core[0], part === 1 ? v.core[1] + 1 : part === 0 ? 0 : v.core[1], part === 2 ? v.core[2] + 1 : 0],
  pre: [],
});

/** `^1.2.3` is >=1.2.3 <2.0.0; `^0.2.3` is >=0.2.3 <0.3.0; `^0.0.3` is >=0.0.3 <0.0.4 (npm's caret). */
function caret(v: Version): Comparator[] {
  const part = v.core[0] > 0 ? 0 : v.core[1] > 0 ? 1 : 2;
  return [
    { operator: '>=', version: v },
    { operator: '<', version: next(v, part) },
  ];
}

/** `~1.2.3` is >=1.2.3 <1.3.0. */
const tilde = (v: Version): Comparator[] => [
  { operator: '>=', version: v },
  { operator: '<', version: next(v, 1) },
];

function comparators(word: string): Comparator[] {
  const m = /^(\^|~|<=|>=|<|>|=)?(.+)$/.exec(word)!;
  const version = parseVersion(m[2]);
  if (!version) throw new Error(`"${word}" is not a version (give three numbers, such as 8.2.0)`);
  if (m[1] === '^') return caret(version);
  if (m[1] === '~') return tilde(version);
  return [{ operator: (m[1] ?? '=') as Operator, version }];
}

const holds = ({ operator, version }: Comparator, v: Version): boolean => {
  const c = compareVersions(v, version);
  return { '<': c < 0, '<=': c <= 0, '>': c > 0, '>=': c >= 0, '=': c === 0 }[operator];
};

/** A range: sets of comparators, any set of which a version must meet whole. */
export type VersionRange = Comparator[][];

/** A range read; an error names the word it cannot read. */
export function parseRange(text: string): VersionRange {
  if (text.length > 200) throw new Error(`a range of ${text.length} characters is longer than any needs (at most 200)`);
  return text.split('||').map((alternative) => {
    // `>= 6.10.1` is read as `>=6.10.1`, as npm reads it.
    const words = alternative
      .trim()
      .replace(/(<=|>=|<|>|=|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    if (words.length === 0) throw new Error(`"${text}" has an empty alternative`);
    return words.flatMap(comparators);
  });
}

/**
 * Whether `version` is in the range. A pre-release is in it only where a comparator of the same set names a
 * pre-release of the same three numbers (npm's rule): `>=8.0.0` does not take in 8.3.0-beta.1, whose changes
 * the range's author has not seen.
 */
export function satisfies(version: string, range: VersionRange): boolean {
  const v = parseVersion(version);
  if (!v) return false;
  return range.some((set) => {
    if (!set.every((c) => holds(c, v))) return false;
    if (v.pre.length === 0) return true;
    return set.some((c) => c.version.pre.length > 0 && c.version.core.every((n, i) => n === v.core[i]));
  });
}
