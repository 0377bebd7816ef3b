// @ts-check
// The thread that puts a large recording into bytes (exchanges-writer.ts starts it with its job): it posts the
// bytes, handed over without a copy, and their digest.
const { parentPort, workerData } = require('node:worker_threads');
const { exchangesBytes } = require('./exchanges-file.js');

const { bytes, digest } = exchangesBytes(workerData);
// The bytes' own memory is handed over; a Buffer that shares Node's pool is copied into its own first.
const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : Buffer.from(bytes);
parentPort?.postMessage({ bytes: own, digest }, [/** @type {ArrayBuffer} */ (own.buffer)]);
