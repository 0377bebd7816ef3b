// Metric families written in Prometheus' two text formats: OpenMetrics 1.0 (`metrics.prom`, and what a scrape that
// asks for it gets) and the text format 0.0.4 that every Prometheus, promtool and node_exporter's textfile
// collector read. One list of families, two spellings: the differences are the spec's (a counter's `_total`, UNIT
// lines and `# EOF` are OpenMetrics' alone).

/** A gauge, a counter, or a summary that has only its `_sum` and `_count`. */
export type MetricType = 'gauge' | 'counter' | 'summary';

export interface Sample {
  labels: Record<string, string>;
  value: number;
  /** Added to the family's name: `_sum`, `_count` of a summary. A counter's `_total` is the writer's. */
  suffix?: '_sum' | '_count';
}

export interface MetricFamily {
  /** The family's name, base units in it (`_seconds`), a counter's without `_total`. */
  name: string;
  type: MetricType;
  help: string;
  /** The base unit the name ends with, for OpenMetrics' UNIT line. */
  unit?: 'seconds';
  samples: Sample[];
}

export type MetricsFormat = 'openmetrics' | 'text';

/** The media types of the two formats, as a scrape's Accept header and the answer's Content-Type name them. */
export const CONTENT_TYPE: Record<MetricsFormat, string> = {
  openmetrics: 'application/openmetrics-text; version=1.0.0; charset=utf-8',
  text: 'text/plain; version=0.0.4; charset=utf-8',
};

/** The format a scrape asked for: OpenMetrics when its Accept header names it, the text format otherwise. */
export const formatAskedFor = (accept: string | undefined): MetricsFormat => (/application\/openmetrics-text/i.test(accept ?? '') ? 'openmetrics' : 'text');

/** A lone surrogate, which UTF-8 cannot carry, as U+FFFD. */
const wellFormed = (text: string) => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/**
 * A label value as both formats escape it (backslash, double quote, line feed), well formed; a URL's credentials (`//user:password@`) are never written, wherever a value came from.
 */
export function labelValue(value: string): string {
  return wellFormed(value)
    .replace(/\/\/[^/@\s]*@/g, '//')
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n');
}

/** A HELP text: one line, its backslashes escaped (the 0.0.4 format does not escape its quotes). */
const helpText = (text: string) => wellFormed(text).replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

/** A label name or metric name part: what is no letter, digit or underscore becomes an underscore. */
export const labelName = (text: string) => text.replace(/[^a-zA-Z0-9_]/g, '_').replace(/^(?=\d)/, '_');

/** A number as both formats write it: +Inf, -Inf and NaN spelt as they spell them. */
function number(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

function sampleLine(name: string, sample: Sample): string {
  const labels = Object.entries(sample.labels).map(([key, value]) => `${key}="${labelValue(value)}"`);
  return `${name}${labels.length > 0 ? `{${labels.join(',')}}` : ''} ${number(sample.value)}`;
}

/** A sample's own name: the family's, with a counter's `_total` or a summary's suffix. */
const sampleName = (family: MetricFamily, sample: Sample) => family.name + (family.type === 'counter' ? '_total' : (sample.suffix ?? ''));

function familyLines(family: MetricFamily, format: MetricsFormat): string[] {
  // OpenMetrics names a counter's family without `_total`; the 0.0.4 format names it as its samples are named.
  const named = format === 'text' && family.type === 'counter' ? `${family.name}_total` : family.name;
  return [
    `# HELP ${named} ${helpText(family.help)}`,
    `# TYPE ${named} ${family.type}`,
    ...(format === 'openmetrics' && family.unit ? [`# UNIT ${named} ${family.unit}`] : []),
    ...family.samples.map((s) => sampleLine(sampleName(family, s), s)),
  ];
}

/** The families in one format; a family without samples is left out (both formats allow it, but it says nothing). */
export function renderMetrics(families: MetricFamily[], format: MetricsFormat): string {
  const lines = families.filter((f) => f.samples.length > 0).flatMap((f) => familyLines(f, format));
  if (format === 'openmetrics') lines.push('# EOF');
  return `${lines.join('\n')}\n`;
}
