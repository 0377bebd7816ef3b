import path from 'node:path';
import { realPath, within } from '../files/folders.ts';
import { readDotenv, reportDirIn, type Source, type Variables } from './sources.ts';

// A run takes its report folder first, and clears what an earlier run left there (its evidence.tar.gz too),
// then writes its reports: a bundle to replay in that folder, or a folder that holds the reports, would be
// destroyed before it is read. Checked from the raw variables, since a configuration error takes the folder too.

/** The bundle CONFORMANCE_REPLAY names, from the environment or .env, unchecked. */
function bundleIn(env: Source, dotenv: Source, cwd: string): string | undefined {
  const bundle = env.CONFORMANCE_REPLAY || dotenv.CONFORMANCE_REPLAY;
  return bundle ? path.resolve(cwd, bundle) : undefined;
}

function problemIn(env: Source, dotenv: Source, cwd: string): string | undefined {
  const bundle = bundleIn(env, dotenv, cwd);
  const reportDir = reportDirIn(env, dotenv, cwd);
  if (bundle === undefined || reportDir === undefined) return undefined;
  const [b, r] = [realPath(bundle), realPath(reportDir)];
  if (within(b, r))
    return `CONFORMANCE_REPLAY ${bundle} lies in the report folder ${reportDir}, which a run clears before it reads the bundle: move or copy the bundle out of it, or give another CONFORMANCE_REPORT_DIR`;
  if (within(r, b))
    return `CONFORMANCE_REPORT_DIR ${reportDir} lies in the bundle folder ${bundle}, whose files the reports would change: give a report folder outside it`;
  return undefined;
}

/** Why the bundle to replay and the report folder cannot go together, when they lie one in the other: from the run's variables. */
export function replayFolderProblem(variables: Variables, cwd: string): string | undefined {
  return problemIn(variables.env, variables.dotenv, cwd);
}

/**
 * The report folder a run stopped by a configuration error takes, unless the bundle it was to replay lies in it.
 * The run's settings were not read (their error stopped it): `.env` is read here, once, and a `.env` that cannot be
 * read names no folder.
 */
export function folderToTakeOnConfigError(env: Source, cwd: string): string | undefined {
  let dotenv: Source;
  try {
    dotenv = readDotenv(path.join(cwd, '.env'));
  } catch {
    return undefined;
  }
  return problemIn(env, dotenv, cwd) === undefined ? reportDirIn(env, dotenv, cwd) : undefined;
}
