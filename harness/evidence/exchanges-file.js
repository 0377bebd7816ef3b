// @ts-check
// Puts a bundle's recording into bytes: the one code that runs on a thread of its own (exchanges-thread.js)
// for a large recording and in the caller's process for a small one. JavaScript with Node's own modules only,
// type-checked like the rest: a thread loads it by itself, with no TypeScript loader, from a clone (where the
// suite's own TypeScript is loaded by Playwright or tsx, and the action installs neither tsx nor any other)
// as from the installed package, whose build copies it into dist/.
const { createHash } = require('node:crypto');

/**
 * What is written: the recording without its bodies, and each distinct body once.
 * @typedef {object} ExchangesJob
 * @property {string} head the JSON text of the recording up to its exchanges
 * @property {string[]} exchanges each exchange's JSON text, without its body
 * @property {number[]} bodyOf for each exchange, the index of its body in `bodies`, or -1 when it has none
 * @property {string[]} bodies
 */

/**
 * The job's file, put together an exchange at a time (one JSON text of every body at once could pass the longest
 * string a JavaScript engine holds); each distinct body is written once, by the first exchange that has it, and a
 * later exchange with the same body names that one (`bodySameAs`).
 * @param {ExchangesJob} job
 * @returns {{ bytes: Buffer, digest: string }} the file's bytes and their SHA-256
 */
function exchangesBytes({ head, exchanges, bodyOf, bodies }) {
  const hash = createHash('sha256');
  /** @type {Buffer[]} */
  const parts = [];
  /** @param {string} text */
  const write = (text) => {
    const bytes = Buffer.from(text);
    hash.update(bytes);
    parts.push(bytes);
  };
  /** The first exchange with each body, by the body's index. */
  const holder = new Map();
  write(head);
  exchanges.forEach((exchange, i) => {
    const separator = i === 0 ? '' : ',\n';
    if (bodyOf[i] === -1) return write(separator + exchange);
    if (holder.has(bodyOf[i])) return write(`${separator}${exchange.slice(0, -1)},"bodySameAs":${holder.get(bodyOf[i])}}`);
    holder.set(bodyOf[i], i);
    write(`${separator}${exchange.slice(0, -1)},"bodyText":`);
    write(JSON.stringify(bodies[bodyOf[i]]));
    write('}');
  });
  write('\n]}\n');
  return { bytes: Buffer.concat(parts), digest: hash.digest('hex') };
}

module.exports = { exchangesBytes };
