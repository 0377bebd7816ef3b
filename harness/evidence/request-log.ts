import type { RunFacts } from '../judging/verdicts.ts';

// The request log the judging leaves in the report folder. Its own module, so that the reporter, made
// with the configuration, reads it without loading the judging and everything it judges with.

export const REQUEST_LOG = 'requests.json';

/** The request log as written: what was sent and what came back, without bodies or secrets. */
export interface RequestLog {
  startedAt: string;
  target: RunFacts['target'];
  requests: {
    method: string;
    path: string;
    credential: string;
    status?: number;
    durationMs: number;
    bodyBytes: number;
    failure?: string;
    /** Set on the request that read the product's version: outside the document, a fact recorded, never judged. */
    outsideDocument?: 'product-version';
  }[];
}
