// The document's numbered parts as Markdown writes them: a heading ("## 2. Resources and their fields",
// "### 2.1 Public signup token (`publicSignupTokenSchema`)"), its prose, and its tables, each a header row and
// rows of cells. Only the layout is read here; what a column means is document-rows.ts's.

export interface MarkdownTable {
  header: string[];
  rows: string[][];
}

/** One numbered heading and what lies below it, up to the next heading. */
export interface DocumentPart {
  /** "2" or "2.1". */
  number: string;
  /** The heading's words after its number. */
  heading: string;
  /** The prose below it, tables left out. */
  prose: string;
  tables: MarkdownTable[];
}

// The title is taken whole and trimmed after: a lazy title before trailing spaces (`(.+?)\s*$`) tries every split of
// a line's spaces, quadratic in a line of a file anyone may hand the command.
const HEADING = /^#{2,6} (\d+(?:\.\d+)*)\.? +(\S.*)$/;
const TABLE_LINE = /^\s*\|/;
const SEPARATOR = /^\s*\|?(\s*:?-+:?\s*\|)+\s*(:?-+:?\s*)?$/;

/** The cells of a table line: split at each pipe that is not escaped, `\|` read as a pipe. */
function cellsOf(line: string): string[] {
  const inner = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** A run of table lines: the header, the separator Markdown requires under it, then the rows. */
function tableOf(lines: string[]): MarkdownTable | undefined {
  if (lines.length < 2 || !SEPARATOR.test(lines[1])) return undefined;
  return { header: cellsOf(lines[0]), rows: lines.slice(2).map(cellsOf) };
}

/** Every numbered part of the document, in its order. */
export function documentParts(text: string): DocumentPart[] {
  const parts: DocumentPart[] = [];
  let table: string[] = [];
  let prose: string[] = [];
  const endTable = () => {
    const read = tableOf(table);
    if (parts.length > 0 && read) parts[parts.length - 1].tables.push(read);
    else prose.push(...table);
    table = [];
  };
  const endPart = () => {
    endTable();
    if (parts.length > 0) parts[parts.length - 1].prose = prose.join('\n');
    prose = [];
  };
  for (const line of text.split(/\r?\n/)) {
    if (TABLE_LINE.test(line)) {
      table.push(line);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      endPart();
      parts.push({ number: heading[1], heading: heading[2].trimEnd(), prose: '', tables: [] });
    } else {
      endTable();
      prose.push(line);
    }
  }
  endPart();
  return parts;
}
