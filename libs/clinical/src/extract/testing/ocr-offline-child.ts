// Child process for ocr.spec.ts. The test runs it with every outside HTTP(S) request routed to a
// recording proxy (NODE_USE_ENV_PROXY), worker threads included. It first sends one probe request
// from a worker thread (proving the recorder sees worker traffic, where OCR runs), then OCRs one
// image with the library's scheduler and prints the outcome as JSON.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { OcrScheduler } from '../ocr';

/** Sends one request from a worker thread; says how it ended ("403" from the recorder, or an error code). */
function probeFromWorker(): Promise<string> {
  const source = `const { parentPort } = require('node:worker_threads');
    require('node:http').get('http://example.org/probe', (res) => { res.resume(); parentPort.postMessage(String(res.statusCode)); })
      .on('error', (e) => parentPort.postMessage(e.code || e.message));`;
  return new Promise((resolve) => {
    const worker = new Worker(source, { eval: true });
    worker.once('message', (m: string) => {
      resolve(m);
      void worker.terminate();
    });
  });
}

async function main(): Promise<void> {
  const probe = await probeFromWorker();
  const ocr = new OcrScheduler();
  try {
    process.stdout.write(JSON.stringify({ probe, outcome: await ocr.recognize(readFileSync(process.argv[2])) }));
  } finally {
    await ocr.shutdown();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
