import path from 'node:path';
import { loadCatalogue } from '../harness/contracts/catalogue.ts';
import { loadSchemas } from '../harness/contracts/contracts.ts';
import { differenceLine, rowDifferences } from '../harness/document/document-contracts.ts';
import { documentFile } from '../harness/contracts/document.ts';
import { documentTables, MAX_DOCUMENT_BYTES } from '../harness/document/document-rows.ts';
import { readSettingFile } from '../harness/files/setting-file.ts';
import { visible } from '../harness/files/visible.ts';
import type { CommandIO } from './command-io.ts';

// `admin-api-conformance document [FILE]`: for whoever updates the document, its tables of fields and states
// checked row by row against the contracts (the shipped copy when no file is given). Exit 0 when they agree,
// 1 when rows differ (each named, with the clauses it touches), 2 when the file cannot be read or is not the document.

const USAGE = 'usage: admin-api-conformance document [<the document, Markdown; default the copy the suite ships>]';

/** Checks the document's tables against the contracts: its exit code, its lines printed. */
export function documentCommand(args: string[], io: CommandIO): number {
  const refuse = (message: string) => {
    io.output.err(`admin-api-conformance document: ${visible(message)}\n`);
    return 2;
  };
  if (args.length > 1 || args[0]?.startsWith('-')) return refuse(USAGE);
  const file = args[0] === undefined ? documentFile() : path.resolve(io.cwd, args[0]);
  const read = readSettingFile(file);
  if ('reason' in read) return refuse(`${file} cannot be read (${read.reason})`);
  if (read.bytes.length > MAX_DOCUMENT_BYTES) return refuse(`${file} is not the document: it is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB`);
  const tables = documentTables(read.bytes.toString('utf8'));
  if ('notTheDocument' in tables) return refuse(`${file} is not the document: ${tables.notTheDocument}`);
  const differences = rowDifferences(tables.tables, loadSchemas(), loadCatalogue());
  const rows = tables.tables.reduce((n, t) => n + t.rows.length, 0);
  if (differences.length === 0) {
    io.output.out(`${visible(file)}: its ${rows} rows in ${tables.tables.length} tables agree with the contracts\n`);
    return 0;
  }
  const lines = [`${file}: ${differences.length} difference(s) from the contracts, row by row:`, ...differences.map((d) => `  ${differenceLine(d)}`)];
  io.output.out(lines.map((line) => `${visible(line)}\n`).join(''));
  return 1;
}
