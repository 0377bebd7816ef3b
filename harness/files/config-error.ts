/** A configuration mistake, worded as one line that says what to fix. */
export class ConfigError extends Error {}
