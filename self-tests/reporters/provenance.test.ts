import { expect, test } from '@playwright/test';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { specDocument } from '../../harness/contracts/document.ts';
import { buildConformanceReport } from '../../reporters/conformance-result.ts';
import { consoleSummary } from '../../reporters/console-summary.ts';
import { renderHtml } from '../../reporters/html.ts';
import { renderMarkdown } from '../../reporters/markdown.ts';
import { reportSchemaErrors } from '../support/report-schema.ts';
import { runMeta } from '../support/run-meta.ts';

// Issue 13, point 2: every report names the document, the suite and the product under test.

const meta = runMeta({
  suiteVersion: '0.1.0',
  document: specDocument(),
  target: { name: 'staging', baseUrl: 'https://flags.example.invalid', embedded: false },
  product: { name: 'Flagship', version: '4.2.0', vendor: 'Example Ltd', contact: 'conformance@example.invalid' },
});

test('conformance.json names the document by title, SHA-256 and where it was read from, and the product as stated', () => {
  const report = buildConformanceReport(loadCatalogue(), [], meta);
  expect(report.document).toEqual({
    title: 'Admin API: public signup token retrieval and project listing',
    sha256: specDocument().sha256,
    readFrom: '../shared/spec/admin-api.md',
  });
  expect(report.product).toEqual(meta.product);
  expect(report.suite).toEqual({ name: 'admin-api-conformance', version: '0.1.0', contractsHash: '0123456789abcdef' });
  expect(reportSchemaErrors(report)).toEqual([]);
});

test('the page, the summary and the closing block name the document and the product', () => {
  const report = buildConformanceReport(loadCatalogue(), [], meta);
  const { sha256 } = specDocument();
  for (const text of [renderHtml(report), renderMarkdown(report), consoleSummary(report, [])]) {
    expect(text).toContain('Admin API: public signup token retrieval and project listing');
    expect(text).toContain(sha256);
    // Where the suite's own copy was read from is a path of its sources, meaningless to a reader: the title and digest name it.
    expect(text).not.toContain('../shared/spec/admin-api.md');
    expect(text).not.toContain('read from');
    // Markdown escapes the @ of an address, so that it mentions no one on a code host.
    expect(text.replace('\\@', '@')).toContain('Flagship 4.2.0 (version as stated) by Example Ltd; contact: conformance@example.invalid');
  }
});

test('a product nobody stated is reported as not stated, with how to state it', () => {
  const report = buildConformanceReport(loadCatalogue(), [], { ...meta, product: undefined });
  expect(renderMarkdown(report).replace(/\\(.)/g, '$1')).toContain('Product: not stated (a product: block in the target file, or CONFORMANCE_PRODUCT_NAME');
});
