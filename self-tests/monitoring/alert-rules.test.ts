import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PROJECT_ROOT } from '../support/run-suite.ts';
import { promtool } from './prometheus-tools.ts';

// The alert rules shipped (docs/monitoring/alerts.yml) are proven by their own test file with promtool, and that
// test file is no rubber stamp: each rule weakened makes it fail.

const MONITORING = path.join(PROJECT_ROOT, 'docs', 'monitoring');

test('promtool test rules passes on the shipped rules and their test file', () => {
  expect(promtool(['check', 'rules', path.join(MONITORING, 'alerts.yml')]).status).toBe(0);
  const tested = promtool(['test', 'rules', path.join(MONITORING, 'alerts.test.yml')]);
  expect(tested.output).toContain('SUCCESS');
  expect(tested.status, tested.output).toBe(0);
});

test('each rule broken once fails the test file', () => {
  const rules = readFileSync(path.join(MONITORING, 'alerts.yml'), 'utf8');
  const broken: [string, string][] = [
    ['expr: conformance_profile_met == 0', 'expr: conformance_profile_met == 2'],
    ['> 2 * 3600', '> 4 * 3600'],
    ['expr: up{job="conformance"} == 0', 'expr: up{job="conformance"} == 2'],
    ['absent(up{job="conformance-exporter"} == 1)', 'absent(up{job="conformance-exporter"})'],
    ['< 7 * 86400', '< 1 * 86400'],
  ];
  for (const [from, to] of broken) {
    expect(rules, from).toContain(from);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'alerts-'));
    writeFileSync(path.join(dir, 'alerts.yml'), rules.replace(from, to));
    copyFileSync(path.join(MONITORING, 'alerts.test.yml'), path.join(dir, 'alerts.test.yml'));
    expect(promtool(['test', 'rules', path.join(dir, 'alerts.test.yml')]).status, to).not.toBe(0);
  }
});
