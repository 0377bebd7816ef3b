import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TargetConfig } from '../harness/config/config.ts';
import { visible } from '../harness/files/visible.ts';
import type { ConformanceReport } from '../reporters/conformance-result.ts';
import { exporterFamilies, type ExporterCounts, type ProbeAnswer, type Refusal } from '../reporters/metrics-exporter.ts';
import { renderReportMetrics } from '../reporters/metrics.ts';
import { CONTENT_TYPE, formatAskedFor, renderMetrics, type MetricsFormat } from '../reporters/metrics-text.ts';
import type { Run } from './prepare.ts';
import { keepLatest, probeTarget, tenantFolder } from './probe.ts';

// The exporter's answers, as Prometheus' multi-target pattern asks for them (the blackbox exporter's): Prometheus
// names a target of the fleet, `GET /probe?target=<name>`, and gets that target's metrics, from a run made now
// by the engine (run/probe.ts) or from one younger than --min-interval. Only names of the fleet are taken, never
// an address: the exporter sends requests to the targets of its settings and to nothing a query names.

export interface ExporterOptions {
  /** A result younger than this is answered again rather than judged anew. */
  minIntervalMs: number;
  /** The most runs under way at once; a probe beyond them is refused (503) and Prometheus tries again. */
  maxInFlight: number;
  /** The probes kept per tenant, newest first. */
  keep: number;
  /** Where a line about the exporter's own trouble goes (a folder it could not tidy). */
  err: (text: string) => void;
}

/** A target's latest result, kept as its answers alone: a fleet's reports do not stay in memory. */
interface Judged {
  /** Its metrics in each format. */
  metrics: Record<MetricsFormat, string>;
  /** When its run ended, in milliseconds. */
  at: number;
}

/** A request refused: its status and the one line that says why. */
type Answer = { status: number; line: string; reason: Refusal } | { judged: Judged; answer: ProbeAnswer };

const VERDICTS = new Set(['pass', 'fail']);

/** What looks like an address rather than a name: a scheme and `//`, which no fleet's name needs. */
const isAddress = (given: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(given) || given.startsWith('//');

export function createExporter(run: Run, options: ExporterOptions) {
  const targets = new Map<string, TargetConfig>(run.targets.map((t) => [t.name, t]));
  const judged = new Map<string, Judged>();
  const inFlight = new Map<string, Promise<Judged | undefined>>();
  const lastVerdictAt = new Map<string, number>();
  const counts: ExporterCounts = {
    targets: targets.size,
    probes: { fresh: 0, joined: 0, cached: 0 },
    refused: { 'unknown-target': 0, 'bad-request': 0, busy: 0, failed: 0 },
    runs: {},
    failures: 0,
    runSeconds: { sum: 0, count: 0 },
    inFlight: 0,
    maxInFlight: options.maxInFlight,
  };
  let stopping = false;

  /** One run of the target, its result kept; undefined when it ended without a report. */
  async function judge(config: TargetConfig): Promise<Judged | undefined> {
    const started = Date.now();
    counts.inFlight++;
    try {
      const { report } = await probeTarget(run, config);
      if (VERDICTS.has(report.verdict)) lastVerdictAt.set(config.name, Date.parse(report.startedAt) / 1000);
      const result = { metrics: metricsOf(report), at: Date.now() };
      judged.set(config.name, result);
      counts.runs[report.verdict] = (counts.runs[report.verdict] ?? 0) + 1;
      tidy(config);
      return result;
    } catch (error) {
      counts.failures++;
      options.err(
        `conformance serve: the run of ${visible(config.name)} ended without a report (${visible(String((error as NodeJS.ErrnoException).code ?? (error as Error).message ?? error))})\n`,
      );
      return undefined;
    } finally {
      counts.inFlight--;
      counts.runSeconds.sum += (Date.now() - started) / 1000;
      counts.runSeconds.count++;
      inFlight.delete(config.name);
    }
  }

  /** A report's metrics in both formats, with when the target last had a verdict. */
  const metricsOf = (report: ConformanceReport): Judged['metrics'] => {
    const given = { clauses: run.metrics?.clauses, lastVerdictAt };
    return { openmetrics: renderReportMetrics([report], given, 'openmetrics'), text: renderReportMetrics([report], given, 'text') };
  };

  /** The tenant's older probes removed; trouble there is said, and the probe's answer stands. */
  function tidy(config: TargetConfig): void {
    try {
      keepLatest(tenantFolder(run, config), options.keep);
    } catch (error) {
      options.err(
        `conformance serve: the older probes of ${visible(config.name)} could not be removed (${visible(String((error as NodeJS.ErrnoException).code ?? error))})\n`,
      );
    }
  }

  /** The target's metrics: cached, joined or judged now, or why not. */
  async function probe(given: string[]): Promise<Answer> {
    if (given.length !== 1) return { status: 400, line: 'give one target: /probe?target=<the name of a target of the fleet>', reason: 'bad-request' };
    if (isAddress(given[0])) return { status: 400, line: "the exporter takes a target's name from its fleet, never an address", reason: 'bad-request' };
    const config = targets.get(given[0]);
    // The name is not quoted back: the answer says nothing a query put in it.
    if (config === undefined) return { status: 404, line: 'no target of the fleet has that name', reason: 'unknown-target' };
    const cached = judged.get(config.name);
    if (cached && Date.now() - cached.at < options.minIntervalMs) return { judged: cached, answer: 'cached' };
    const running = inFlight.get(config.name);
    if (running === undefined && (stopping || inFlight.size >= options.maxInFlight))
      return {
        status: 503,
        line: stopping ? 'the exporter is stopping' : `${options.maxInFlight} runs are under way (--max-in-flight): try again`,
        reason: 'busy',
      };
    const pending = running ?? inFlight.set(config.name, judge(config)).get(config.name)!;
    const result = await pending;
    if (result === undefined) return { status: 500, line: "the run of this target ended without a report; the exporter's log says why", reason: 'failed' };
    return { judged: result, answer: running ? 'joined' : 'fresh' };
  }

  function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
    res.end(body);
  }

  const refuse = (res: ServerResponse, status: number, line: string, headers?: Record<string, string>) =>
    send(res, status, 'text/plain; charset=utf-8', `${line}\n`, headers);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET') return refuse(res, 405, 'the exporter answers GET alone', { allow: 'GET' });
    const url = new URL(req.url ?? '/', 'http://exporter');
    const format = formatAskedFor(req.headers.accept);
    if (url.pathname === '/metrics') return send(res, 200, CONTENT_TYPE[format], renderMetrics(exporterFamilies(counts), format));
    if (url.pathname !== '/probe') return refuse(res, 404, 'the exporter serves /probe?target=<name> and /metrics');
    const answer = await probe(url.searchParams.getAll('target'));
    if ('status' in answer) {
      counts.refused[answer.reason]++;
      return refuse(res, answer.status, answer.line, answer.status === 503 ? { 'retry-after': '5' } : {});
    }
    counts.probes[answer.answer]++;
    send(res, 200, CONTENT_TYPE[format], answer.judged.metrics[format]);
  }

  /** Takes no new run, and waits for those under way to end. */
  async function drain(): Promise<void> {
    stopping = true;
    await Promise.all([...inFlight.values()]);
  }

  return { handle, drain, counts };
}
