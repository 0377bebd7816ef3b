import { loadChecks } from '../../checks/index.ts';
// Judges every variant of the reference server in this process and prints, as JSON, each clause's outcome
// and violations, and whether Ajv's compiler and the YAML parser were loaded: the self-test of the compiled-schema cache runs it
// with an empty cache, then with the cache that run filled, then with that cache damaged.
import { check, schemaFile } from '../../harness/files/checked.ts';
import { judge } from '../../harness/judging/judge.ts';
import { ALL_VARIANTS } from '../../reference-server/variants/index.ts';
import { REFERENCE_INPUT, recordInProcess } from './in-process.ts';
import { requirementText } from '../../harness/judging/violations.ts';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const judged = [undefined, ...ALL_VARIANTS].map((variant) => ({
  variant: variant?.name ?? 'reference',
  clauses: judge(recordInProcess(variant, REFERENCE_INPUT, NOW), REFERENCE_INPUT, loadChecks()).map((c) => [
    c.clause,
    c.outcome,
    c.violations.map((v) => [v.exchange.request.path, v.pointer, v.received, requirementText(v.requirement)]),
  ]),
}));
// The suite's own schemas too: one that holds, one that does not.
const files = [
  check(schemaFile('catalogue.schema.json'), [{ id: 'a', section: '1', level: 'MUST', title: 't' }]),
  check(schemaFile('catalogue.schema.json'), [{ id: 1 }]),
];
const modules = Object.keys(require.cache);
const ajvCompilerLoaded = modules.some((file) => file.includes('/ajv/dist/compile/'));
const yamlLoaded = modules.some((file) => file.includes('/node_modules/yaml/dist/'));
process.stdout.write(JSON.stringify({ judged, files, ajvCompilerLoaded, yamlLoaded }));
