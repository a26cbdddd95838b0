import { stat } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { emptyPart, type ExtractContext, type PartialResult } from './types';

/**
 * Heap for the .doc reader. A damaged file can send word-extractor's OLE reader into endless
 * allocation; V8 then aborts the whole process (a worker thread's resourceLimits did not contain
 * it: the test's damaged file killed the parent), hence a child process.
 */
const DOC_HEAP_MB = 128;
const DOC_TIMEOUT_MS = 30_000;
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

// Runs in the child: word-extractor's text as JSON on stdout (body, headers and footers, notes).
const CHILD_SOURCE = `
const [modulePath, filePath] = process.argv.slice(1);
const WordExtractor = require(modulePath);
new WordExtractor().extract(filePath).then(
  (doc) => process.stdout.write(JSON.stringify([doc.getBody(), doc.getHeaders({ includeFooters: true }), doc.getFootnotes(), doc.getEndnotes()])),
  () => { process.exitCode = 1; },
);
`;

/**
 * Word 97-2003 (.doc) through word-extractor, in a child process with a small heap and a time
 * limit: a damaged file fails alone instead of taking the service down.
 */
export async function extractDoc(ctx: ExtractContext): Promise<PartialResult> {
  const part = emptyPart();
  if ((await stat(ctx.path)).size > ctx.limits.maxParsedBytes) {
    part.problems.push({ filename: ctx.filename, reason: 'This Word document is too large to be read.' });
    return part;
  }
  const parts = await readInChild(ctx);
  if (!parts) {
    part.problems.push({ filename: ctx.filename, reason: 'This Word document is damaged and could not be read.' });
    return part;
  }
  const text = parts
    .map((t) => t.replace(/\r\n?/g, '\n').trim())
    .filter(Boolean)
    .join('\n\n');
  if (text) part.texts.push({ filename: ctx.filename, page: null, text, ocr: false });
  return part;
}

function readInChild(ctx: ExtractContext): Promise<string[] | null> {
  ctx.signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${DOC_HEAP_MB}`, '-e', CHILD_SOURCE, require.resolve('word-extractor'), ctx.path],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: DOC_TIMEOUT_MS,
        signal: ctx.signal,
      },
    );
    const out: Buffer[] = [];
    let outBytes = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes <= MAX_OUTPUT_BYTES) out.push(chunk);
      else child.kill('SIGKILL');
    });
    child.on('error', (error) => {
      if (ctx.signal?.aborted) reject(ctx.signal.reason);
      else ctx.logger.warn('doc_failed', { error: error.name });
    });
    child.on('close', (code, signal) => {
      if (ctx.signal?.aborted) return reject(ctx.signal.reason);
      if (code !== 0 || outBytes > MAX_OUTPUT_BYTES) {
        ctx.logger.warn('doc_failed', { code: code ?? -1, signal: signal ?? '' });
        return resolve(null);
      }
      try {
        resolve(JSON.parse(Buffer.concat(out).toString('utf8')) as string[]);
      } catch {
        resolve(null);
      }
    });
  });
}
