import { parseArgs } from 'node:util';

// A command's own arguments (verify, merge, diff), read by node:util's parseArgs as the run's options are
// (bin/admin-api-conformance.js): `--name value` or `--name=value`, positionals anywhere, `--` ending options.
// Every mistake is one line, named as the command line gave it.

/** A command's options: each a flag, or one that takes a value. */
export type Options = Record<string, 'flag' | 'value'>;

export interface Arguments {
  positionals: string[];
  /** The value of an option that takes one, or undefined when it was not given. */
  value(name: string): string | undefined;
  flag(name: string): boolean;
}

/**
 * The arguments, or the line that says what is wrong with them: an option the command does not know, or a
 * flag given a value (`usage`); an option given twice; an option without its value (a value that looks like
 * an option is none: `--key --anyway` forgot the key).
 */
export function readArguments(args: string[], options: Options, usage: string): Arguments | { mistake: string } {
  const specs = Object.fromEntries(
    Object.entries(options).map(([name, kind]) => [name, { type: kind === 'value' ? ('string' as const) : ('boolean' as const) }]),
  );
  const { tokens } = parseArgs({ args, options: specs, strict: false, allowPositionals: true, tokens: true });
  const given = new Map<string, string | true>();
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const kind = options[token.name];
    if (kind === undefined || (kind === 'flag' && token.value !== undefined)) return { mistake: usage };
    if (given.has(token.name)) return { mistake: `--${token.name} is given twice: give it once` };
    const value = token.value;
    // A negative number is a value, though it starts with a dash: its option's own check says what it takes.
    const optionLike = value?.startsWith('-') === true && !/^-\d/.test(value);
    if (kind === 'value' && (value === undefined || value === '' || (!token.inlineValue && optionLike)))
      return { mistake: `--${token.name} needs a value; ${usage}` };
    given.set(token.name, kind === 'flag' ? true : (value ?? ''));
  }
  return {
    positionals: tokens.flatMap((t) => (t.kind === 'positional' ? [t.value] : [])),
    value: (name) => {
      const value = given.get(name);
      return typeof value === 'string' ? value : undefined;
    },
    flag: (name) => given.get(name) === true,
  };
}
