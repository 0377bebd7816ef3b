import type { Node } from 'yaml';
import { ConfigError } from './config-error.ts';
import { readSettingFile } from './setting-file.ts';

// Loaded when a YAML file is read, not with this module: a run configured by its environment reads none.
const yaml = () => require('yaml') as typeof import('yaml');

/**
 * A YAML file's content. Errors name the file, the kind of mistake and where it is, and never the text:
 * an unquoted token such as `*:*.abc` reads as an alias, and the parser would quote it back.
 */
export function readYamlFile(file: string, what: string): unknown {
  const read = readSettingFile(file);
  if ('reason' in read) throw new ConfigError(`${what} ${file} cannot be read (${read.reason})`);
  const text = read.bytes.toString('utf8');
  const deep = deepestLine(text);
  if (deep !== undefined)
    throw new ConfigError(`${what} ${file} nests deeper than a settings file does (at line ${deep}); a list of entries with a few keys each is all it holds`);
  const { isAlias, parseDocument, visit } = yaml();
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const mistake = (code: string, offset: number) => {
    const [line, column] = lineAndColumn(text, offset);
    return new ConfigError(`${what} ${file} is not valid YAML (${code} at line ${line}, column ${column}); quote values that start with * & ! % @ or \``);
  };
  const [error] = doc.errors;
  if (error) throw mistake(error.code, error.pos[0]);
  try {
    return doc.toJS();
  } catch {
    // An alias with no anchor (an unquoted `*:*.…` token) only fails when the value is built, with a message that quotes it.
    let alias: Node | undefined;
    visit(doc, { Alias: (_, node) => void (alias ??= node) });
    throw mistake('BAD_ALIAS', alias && isAlias(alias) ? (alias.range?.[0] ?? 0) : 0);
  }
}

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
