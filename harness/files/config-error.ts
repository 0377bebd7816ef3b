import { visible } from './visible.ts';

/**
 * A configuration mistake, worded as one line that says what to fix. What it quotes (a name, a base URL, a path, a
 * value of a file or a variable) is shown, never obeyed: every control, bidi or invisible character is written as an
 * escape (visible.ts), here, once for every message, so that a quoted line break cannot start a line of its own (a
 * workflow command such as `::error::`) and no override reorders the line.
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(visible(message));
  }
}
