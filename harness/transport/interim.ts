import type { Socket } from 'node:net';

// RFC 9110, 15.2: a client must be able to parse 1xx answers before the final one, even unasked for.
// undici passes 102 and 103 on but ends the connection at a 100 (Continue) it did not ask for, so the
// suite takes every 100 out of the bytes before undici reads them. It can tell where an answer begins
// only at the start of a connection, so every request has a connection of its own (harness/transport/network.ts).

/** The most bytes held while waiting for the end of an interim answer's head; beyond, undici judges. */
const MAX_HELD_BYTES = 64 * 1024;

const STATUS_LINE = /^HTTP\/\d\.\d (\d{3})/;

type Step = { hold: true } | { hold: false; pass: Buffer; rest: Buffer; done: boolean };

/** Looks at the bytes at the start of an answer: a 1xx head to drop (100) or pass on, the final answer, or too little to tell. */
function step(bytes: Buffer): Step {
  const start = bytes.subarray(0, 12).toString('latin1');
  const status = STATUS_LINE.exec(start)?.[1];
  if (status === undefined) {
    // Fewer bytes than a status line that may yet become one: wait for more.
    const mayBecomeOne = bytes.length < 12 && 'HTTP/'.startsWith(start.slice(0, 5));
    return mayBecomeOne ? { hold: true } : { hold: false, pass: bytes, rest: Buffer.alloc(0), done: true };
  }
  if (!status.startsWith('1')) return { hold: false, pass: bytes, rest: Buffer.alloc(0), done: true };
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return bytes.length > MAX_HELD_BYTES ? { hold: false, pass: bytes, rest: Buffer.alloc(0), done: true } : { hold: true };
  const head = bytes.subarray(0, end + 4);
  return { hold: false, pass: status === '100' ? Buffer.alloc(0) : head, rest: bytes.subarray(end + 4), done: false };
}

/**
 * Makes undici's reads of this connection skip the 100 (Continue) answers that precede the final one.
 * undici reads a connection with `socket.read()` alone, so wrapping that one method is enough.
 */
export function skipContinue(socket: Socket): Socket {
  const read = socket.read.bind(socket);
  let held: Buffer = Buffer.alloc(0);
  let done = false;
  socket.read = (size?: number) => {
    if (done) return read(size);
    const chunk = read() as Buffer | null;
    if (chunk === null) return null;
    held = Buffer.concat([held, chunk]);
    const passed: Buffer[] = [];
    while (!done) {
      const next = step(held);
      if (next.hold) break;
      passed.push(next.pass);
      held = next.rest;
      done = next.done;
      if (held.length === 0) break;
    }
    // undici reads again until null: an empty chunk says "nothing yet" without ending its loop early.
    return Buffer.concat(passed);
  };
  return socket;
}
