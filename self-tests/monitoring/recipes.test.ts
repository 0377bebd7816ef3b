import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parse, parseAllDocuments } from 'yaml';
import { loadRun } from '../../run/prepare.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';
import { promtool } from './prometheus-tools.ts';

// The recipes of docs/monitoring/: the Kubernetes manifests are YAML that says what the README says, their fleet
// file is one the suite reads, their Prometheus configuration one promtool accepts and relabels as the shipped one
// does; the cron recipe is a shell script.

const MONITORING = path.join(PROJECT_ROOT, 'docs', 'monitoring');
const read = (name: string) => readFileSync(path.join(MONITORING, name), 'utf8');

interface Manifest {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec?: { template?: { spec: { containers: { command: string[]; env: { name: string; value: string }[] }[] } } };
}

function manifests(): Manifest[] {
  const documents = parseAllDocuments(read('kubernetes.yaml'));
  for (const document of documents) expect(document.errors.map((e) => e.message)).toEqual([]);
  return documents.map((d) => d.toJS() as Manifest);
}

test('kubernetes.yaml is YAML of a Deployment, its Service and their configuration, the exporter listening for the Service', () => {
  const all = manifests();
  expect(all.map((m) => `${m.kind}/${m.metadata.name}`)).toEqual([
    'ConfigMap/conformance-fleet',
    'Secret/conformance-tokens',
    'Deployment/conformance-exporter',
    'Service/conformance-exporter',
    'ConfigMap/conformance-prometheus',
  ]);
  const [container] = all[2].spec!.template!.spec.containers;
  expect(container.command).toEqual(expect.arrayContaining(['serve', '--listen', '0.0.0.0:9726']));
  expect(container.env).toContainEqual({ name: 'CONFORMANCE_TARGETS', value: '/etc/conformance/fleet.yaml' });
});

test("the recipe's fleet file is one the suite reads, its tokens from the Secret's variables", () => {
  const [fleet, secret] = manifests();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recipe-'));
  writeFileSync(path.join(dir, 'fleet.yaml'), fleet.data!['fleet.yaml']);
  const tokens = (secret as unknown as { stringData: Record<string, string> }).stringData;
  const run = loadRun({ ...tokens, CONFORMANCE_TARGETS: path.join(dir, 'fleet.yaml') }, dir);
  expect(run.targets.map((t) => t.name)).toEqual(['tenant-eu-1', 'tenant-eu-2', 'tenant-us-1']);
  const tenants = JSON.parse(manifests()[4].data!['conformance-tenants.json']);
  expect(tenants[0].targets).toEqual(run.targets.map((t) => t.name));
});

test("the recipe's Prometheus configuration passes promtool, and relabels as the shipped prometheus.yml does", () => {
  const config = manifests()[4].data!['prometheus.yml'];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recipe-'));
  writeFileSync(path.join(dir, 'prometheus.yml'), config);
  const checked = promtool(['check', 'config', path.join(dir, 'prometheus.yml')]);
  expect(checked.status, checked.output).toBe(0);
  expect(promtool(['check', 'config', path.join(MONITORING, 'prometheus.yml')]).status).toBe(0);
  const relabels = (text: string) =>
    parse(text)
      .scrape_configs.find((j: { job_name: string }) => j.job_name === 'conformance')
      .relabel_configs.map(({ replacement: _address, ...rule }: Record<string, unknown>) => rule);
  expect(relabels(config)).toEqual(relabels(read('prometheus.yml')));
});

test('the textfile collector recipe is a shell script that renames its file into place', () => {
  const script = read('textfile-collector.sh');
  expect(spawnSync('sh', ['-n', path.join(MONITORING, 'textfile-collector.sh')]).status).toBe(0);
  expect(script).toMatch(/\nmv "\$TEXTFILE_DIR\/\.conformance\.prom\.\$\$" "\$TEXTFILE_DIR\/conformance\.prom"\n/);
});
