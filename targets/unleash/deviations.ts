import path from 'node:path';

/**
 * Unleash's known deviations, each naming the versions it applies to: every run names this file as it is, and
 * reads the version from the target (readProductVersion: unleash), as a staging user of any version may.
 */
export const DEVIATIONS_FILE = path.join(__dirname, 'deviations.yaml');
