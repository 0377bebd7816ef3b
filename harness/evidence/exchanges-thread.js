// @ts-check
// The thread that writes a large recording (exchanges-writer.ts starts it with its job): it writes the file
// and posts the digest of its bytes.
const { parentPort, workerData } = require('node:worker_threads');
const { writeExchangesJob } = require('./exchanges-file.js');

parentPort?.postMessage(writeExchangesJob(workerData));
