import type { TargetConfig } from './config.ts';
import type { Recording } from './recording.ts';

/** The facts of one run that every report header needs; attached to each check so merged shards keep them. */
export interface RunContext {
  target: { name: string; baseUrl: string; embedded: boolean; reportedVersion?: Record<string, string> };
  startedAt: string;
  requests: { count: number; methods: string[] };
}

export function runContextOf(config: TargetConfig, recording: Recording): RunContext {
  return {
    target: {
      name: config.name,
      baseUrl: config.baseUrl,
      embedded: config.embedded,
      reportedVersion: recording.exchanges.find((e) => e.versionHeaders)?.versionHeaders,
    },
    startedAt: recording.startedAt,
    requests: { count: recording.exchanges.length, methods: [...new Set(recording.exchanges.map((e) => e.request.method))] },
  };
}
