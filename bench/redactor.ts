// `npm run bench:redactor [-- <targets>]`: what hiding the secrets costs each target of a fleet whose targets share
// their tokens (a fleet file's defaults), in this process. A target's secrets are made as a run makes them (once
// by the judging, twice by its reports), then the texts one reference target's verdicts and evidence bundle
// redact are redacted: the short ones (names, reasons, paths, headers), every one, bodies included, and the short
// ones made each target's own, so that none is redacted twice. Prints one JSON line of milliseconds a target.
import { loadChecks } from '../checks/index.ts';
import { loadCatalogue } from '../harness/contracts/catalogue.ts';
import { bundleRecording } from '../harness/evidence/bundle-recording.ts';
import { judge } from '../harness/judging/judge.ts';
import { runsOf } from '../harness/judging/verdicts.ts';
import { createRedactor, createSecrets } from '../harness/secrets/redact.ts';
import { FAULTS } from '../reference-server/variants/index.ts';
import { REFERENCE_INPUT, recordInProcess } from '../self-tests/support/in-process.ts';

const targets = Number(process.argv[2] ?? 1_000);
/** A text this long or shorter counts as short: a clause's name, a reason, a path, a header. */
const SHORT_CHARS = 256;

/** Every text one target's verdicts and bundle pass through its redactor, in the order they do. */
function textsOfOneTarget(): string[] {
  const texts: string[] = [];
  const { redact, placeholderOf } = createSecrets(REFERENCE_INPUT);
  const secrets = { redact: (text: string) => (texts.push(text), redact(text)), placeholderOf };
  // A failing fault, so that reasons and evidence are written too.
  const recording = recordInProcess(FAULTS.find((f) => f.name === 'expired-token-enabled'));
  runsOf(loadCatalogue(), judge(recording, REFERENCE_INPUT, loadChecks()), secrets);
  const facts = {
    target: { name: 't', baseUrl: 'http://reference.invalid', embedded: false },
    startedAt: recording.startedAt,
    requests: { count: 0, methods: [] },
    deviations: [],
  };
  bundleRecording(recording, { ...REFERENCE_INPUT, baseUrl: 'http://reference.invalid' }, secrets, facts);
  return texts;
}

/** Milliseconds a target; `fresh`, each text made the target's own (its number after it), so that none is redacted twice. */
function perTarget(texts: string[], fresh = false): number {
  // One list of every target's tokens for the run, as harness/config/targets.ts gives each target.
  const others = Array.from({ length: targets }, () => ({ ...REFERENCE_INPUT }));
  const started = performance.now();
  for (let i = 0; i < targets; i++) {
    const config = { ...REFERENCE_INPUT, others };
    const { redact } = createSecrets(config);
    createRedactor(config);
    createRedactor(config);
    for (const text of texts) redact(fresh ? `${text} ${i}` : text);
  }
  return (performance.now() - started) / targets;
}

const texts = textsOfOneTarget();
const short = texts.filter((t) => t.length <= SHORT_CHARS);
const figures = {
  targets,
  texts: { short: short.length, all: texts.length, chars: texts.reduce((n, t) => n + t.length, 0) },
  msATarget: { secretsOnly: perTarget([]), shortTexts: perTarget(short), allTexts: perTarget(texts), freshShortTexts: perTarget(short, true) },
};
process.stdout.write(`${JSON.stringify(figures)}\n`);
