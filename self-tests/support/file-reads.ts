import fs from 'node:fs';

// Every file the suite reads goes through Node's fs, whose functions its modules look up as they call them: a
// self-test replaces them for a while to see what is read, or to refuse any read. A read by another way would not
// be seen, so a test that counts reads also proves that the counter sees the read it expects.

/** The functions of node:fs that read a file, its metadata or a folder. */
const READERS = ['readFileSync', 'statSync', 'lstatSync', 'existsSync', 'openSync', 'readdirSync', 'readSync', 'realpathSync'] as const;

type Reader = (typeof READERS)[number];

/** What `run` returns, and every read it made: the function, and the file as given. */
export function readsDuring<T>(run: () => T): { result: T; reads: { reader: Reader; file: string }[] } {
  const reads: { reader: Reader; file: string }[] = [];
  const result = replacingReaders(
    (reader, original) =>
      (file: unknown, ...rest: unknown[]) => {
        reads.push({ reader, file: String(file) });
        return original(file, ...rest);
      },
    run,
  );
  return { result, reads };
}

/** Variables a library the suite uses reads for itself at each call: the YAML parser's logs of its tokens and stream. */
const LIBRARIES_OWN = new Set(['LOG_TOKENS', 'LOG_STREAM']);

/** What `run` returns; any read it makes, of a file or of an environment variable (but a library's own), throws instead. */
export function withoutReads<T>(run: () => T): T {
  const env = process.env;
  const refuse = (what: string): never => {
    throw new Error(`process.env${what} was read`);
  };
  const read = (name: string | symbol) => (LIBRARIES_OWN.has(String(name)) ? undefined : refuse(`.${String(name)}`));
  process.env = new Proxy({}, { get: (_, name) => read(name), has: (_, name) => read(name) !== undefined, ownKeys: () => refuse('') });
  try {
    return replacingReaders(
      (reader) =>
        (file: unknown): never => {
          throw new Error(`${reader} read ${String(file)}`);
        },
      run,
    );
  } finally {
    process.env = env;
  }
}

type Original = (file: unknown, ...rest: unknown[]) => unknown;

function replacingReaders<T>(replacement: (reader: Reader, original: Original) => Original, run: () => T): T {
  const module = fs as unknown as Record<Reader, Original>;
  const saved = READERS.map((reader) => [reader, module[reader]] as const);
  for (const [reader, original] of saved) module[reader] = replacement(reader, original);
  try {
    return run();
  } finally {
    for (const [reader, original] of saved) module[reader] = original;
  }
}
