import type { Document } from 'yaml';
import { ConfigError } from './config-error.ts';
import { readSettingFile, type SettingFileRead } from './setting-file.ts';

// Loaded when a YAML file is read, not with this module: a run configured by its environment reads none. Kept once
// loaded, so that a fleet's targets parsing their shared files do not look the module up again each time.
let parser: typeof import('yaml') | undefined;
const yaml = () => (parser ??= require('yaml') as typeof import('yaml'));

/**
 * The most bytes a YAML settings file (a target, fleet or deviations file) may hold: the parser takes seconds and
 * hundreds of MiB for each few MiB (16 MiB took 27 s and 1 GiB here), and the largest fleet a run takes holds about
 * 1.5 MiB.
 */
export const MAX_YAML_BYTES = 4 * 2 ** 20;

/**
 * A YAML file's content. Errors name the file, the kind of mistake and where it is, and never the text:
 * an unquoted token such as `*:*.abc` reads as an alias, and the parser would quote it back.
 */
export function readYamlFile(file: string, what: string): unknown {
  return yamlContent(readSettingFile(file), file, what);
}

/** The content of a YAML file already read (once, with the settings that name it), checked as readYamlFile checks it. */
export function yamlContent(read: SettingFileRead, file: string, what: string): unknown {
  if ('reason' in read) throw new ConfigError(`${what} ${file} cannot be read (${read.reason})`);
  if (read.bytes.length > MAX_YAML_BYTES)
    throw new ConfigError(
      `${what} ${file} holds more than ${MAX_YAML_BYTES / 2 ** 20} MiB, the most a YAML settings file may (the largest fleet a run takes holds about 1.5 MiB)`,
    );
  const text = read.bytes.toString('utf8');
  const deep = deepestLine(text);
  if (deep !== undefined)
    throw new ConfigError(`${what} ${file} nests deeper than a settings file does (at line ${deep}); a list of entries with a few keys each is all it holds`);
  const { parseDocument } = yaml();
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const mistake = (code: string, offset: number) => {
    const [line, column] = lineAndColumn(text, offset);
    return new ConfigError(`${what} ${file} is not valid YAML (${code} at line ${line}, column ${column}); ${adviceFor(code)}`);
  };
  const [error] = doc.errors;
  if (error) throw mistake(error.code, error.pos[0]);
  // An alias with no anchor before it (an unquoted `*:*.…` token) only fails when the value is built, with a message
  // that quotes it: it is found first, and given the advice to quote.
  const unanchored = aliasWithoutAnchor(doc);
  if (unanchored !== undefined) throw mistake('BAD_ALIAS', unanchored);
  try {
    return doc.toJS();
  } catch {
    // Every alias has its anchor: the parser refused to expand them (an alias bomb, a few lines that would expand
    // to billions of values). Quoting is no advice for that.
    const [line, column] = lineAndColumn(text, firstAlias(doc) ?? 0);
    throw new ConfigError(
      `${what} ${file} is refused for its aliases (from line ${line}, column ${column}): they expand to more values than a settings file holds; write the values out`,
    );
  }
}

/** Where the first alias is whose anchor is not set before it, in the order the parser resolves them; undefined when there is none. */
function aliasWithoutAnchor(doc: Document): number | undefined {
  const { isAlias, visit } = yaml();
  const anchors = new Set<string>();
  let found: number | undefined;
  visit(doc, {
    Node: (_, node) => {
      if (isAlias(node)) {
        if (anchors.has(node.source)) return undefined;
        found = node.range?.[0] ?? 0;
        return visit.BREAK;
      }
      if (node.anchor) anchors.add(node.anchor);
      return undefined;
    },
  });
  return found;
}

/** Where the first alias is. */
function firstAlias(doc: Document): number | undefined {
  const { visit } = yaml();
  let found: number | undefined;
  visit(doc, { Alias: (_, node) => ((found = node.range?.[0] ?? 0), visit.BREAK) });
  return found;
}

const QUOTE = 'quote values that start with * & ! % @ or `, as Unleash tokens (*:*.…) do';

/** What to do about a YAML error, by the parser's code: the advice for one mistake is wrong for another. */
const ADVICE: Record<string, string> = {
  BAD_ALIAS: QUOTE,
  ALIAS_PROPS: QUOTE,
  BAD_SCALAR_START: QUOTE,
  BAD_DIRECTIVE: QUOTE,
  BAD_PROP_ORDER: QUOTE,
  MULTIPLE_ANCHORS: QUOTE,
  MULTIPLE_TAGS: QUOTE,
  TAG_RESOLVE_FAILED: QUOTE,
  DUPLICATE_KEY: 'a key is given twice in one map: keep one',
  TAB_AS_INDENT: 'indent with spaces: YAML does not take tabs for indentation',
  BAD_INDENT: "check this line's indentation against the lines above it",
  MULTILINE_IMPLICIT_KEY: 'a key and its value go on one line, as `key: value`; check the indentation and that a quote is closed',
  BLOCK_AS_IMPLICIT_KEY: 'a key and its value go on one line, as `key: value`; check the indentation',
  MISSING_CHAR: 'a quote or a bracket opened here is not closed',
  BAD_DQ_ESCAPE: 'a backslash in double quotes starts an escape that YAML does not know: put the value in single quotes',
  MULTIPLE_DOCS: 'a settings file is one YAML document: remove the `---` line and what follows, or make it a file of its own',
  KEY_OVER_1024_CHARS: 'a key is longer than YAML allows: a value has lost its key, or a key its colon',
  BLOCK_IN_FLOW: 'a [list] or {map} on one line holds a block: write it as indented lines instead',
};

const adviceFor = (code: string) => ADVICE[code] ?? 'check that line against the examples in docs/configuration.md';

/** The deepest a settings file nests: a list of maps of lists is 3; the parser recurses, and would run out of memory. */
const MAX_DEPTH = 32;

/**
 * The first line that nests deeper than a settings file does, read from its shape alone before it is parsed:
 * block sequences and maps by their indentation and dashes, flow ones by their open brackets.
 */
function deepestLine(text: string): number | undefined {
  let open = 0;
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    const lead = /^[ \t-]*/.exec(line)![0];
    const dashes = lead.split('-').length - 1;
    for (const c of line) {
      if (c === '[' || c === '{') open += 1;
      else if ((c === ']' || c === '}') && open > 0) open -= 1;
      if (open > MAX_DEPTH) return i + 1;
    }
    if (dashes + Math.floor(lead.length / 2) > MAX_DEPTH * 2) return i + 1;
  }
  return undefined;
}

function lineAndColumn(text: string, offset: number): [number, number] {
  const before = text.slice(0, offset).split('\n');
  return [before.length, before.at(-1)!.length + 1];
}
