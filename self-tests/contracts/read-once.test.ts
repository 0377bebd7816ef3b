import { expect, test } from '@playwright/test';
import { contractFiles, contractsHash, loadSchemas } from '../../harness/contracts/contracts.ts';
import { documentBytes, documentFile, documentPath, documentText, specDocument } from '../../harness/contracts/document.ts';
import { readsDuring } from '../support/file-reads.ts';

// The suite ships contracts/ and the copy of the document, and they do not change while it runs: read once per
// process, they are not read again for each report that names them (a fleet's run writes hundreds).

const REPORTS = 200;

const suiteFiles = () => ({
  contractsHash: contractsHash(),
  contractFiles: contractFiles(),
  schemas: [...loadSchemas().keys()],
  document: specDocument(),
  documentFile: documentFile(),
  documentPath: documentPath(),
  documentText: documentText().length,
  documentBytes: documentBytes().length,
});

test(`contracts/ and the document are read once per process, not again for each of ${REPORTS} reports`, () => {
  const first = suiteFiles();
  const { result, reads } = readsDuring(() => Array.from({ length: REPORTS }, suiteFiles));
  expect(reads).toEqual([]);
  for (const again of result) expect(again).toEqual(first);
});

test("what the suite's files are read into is each caller's own: changing it changes nothing for the next", () => {
  loadSchemas().clear();
  contractFiles()[0].sha256 = 'changed';
  documentBytes().fill(0);
  expect(loadSchemas().size).toBeGreaterThan(0);
  expect(contractFiles()[0].sha256).not.toBe('changed');
  expect(documentBytes().toString('utf8')).toBe(documentText());
});
