import path from 'node:path';
import { realPath, within } from '../files/folders.ts';
import { readDotenv, reportDirOf, type Source } from './sources.ts';

// A run takes its report folder first, and clears what an earlier run left there (its evidence.tar.gz too),
// then writes its reports: a bundle to replay in that folder, or a folder that holds the reports, would be
// destroyed before it is read. Checked from the raw variables, since a configuration error takes the folder too.

/** The bundle CONFORMANCE_REPLAY names, from the environment or .env, unchecked. */
function replayOf(env: Source, cwd: string): string | undefined {
  try {
    const dotenv = readDotenv(path.join(cwd, '.env'));
    const bundle = env.CONFORMANCE_REPLAY || dotenv.CONFORMANCE_REPLAY;
    return bundle ? path.resolve(cwd, bundle) : undefined;
  } catch {
    return undefined;
  }
}

/** Why the bundle to replay and the report folder cannot go together, when they lie one in the other. */
export function replayFolderProblem(env: Source, cwd: string): string | undefined {
  const bundle = replayOf(env, cwd);
  const reportDir = reportDirOf(env, cwd);
  if (bundle === undefined || reportDir === undefined) return undefined;
  const [b, r] = [realPath(bundle), realPath(reportDir)];
  if (within(b, r))
    return `CONFORMANCE_REPLAY ${bundle} lies in the report folder ${reportDir}, which a run clears before it reads the bundle: move or copy the bundle out of it, or give another CONFORMANCE_REPORT_DIR`;
  if (within(r, b))
    return `CONFORMANCE_REPORT_DIR ${reportDir} lies in the bundle folder ${bundle}, whose files the reports would change: give a report folder outside it`;
  return undefined;
}

/** The report folder a run stopped by a configuration error takes, unless the bundle it was to replay lies in it. */
export function folderToTakeOnConfigError(env: Source, cwd: string): string | undefined {
  return replayFolderProblem(env, cwd) === undefined ? reportDirOf(env, cwd) : undefined;
}
