// Extraction figures for the summary service, to fold into bench/summary.mjs:
//   1. time to OCR one A4 page at 300 dpi (2480 x 3508), cold (worker start included) and warm;
//   2. RSS growth of a process extracting a 100-page text PDF (goal: <= 128 MB).
// Run: node bench/summary-extract.mjs   (npm scripts put Node 24 first on PATH; so does `export PATH=$PWD/node_modules/.bin:$PATH`)
// The documents are made here (pdf-lib, sharp); nothing is fetched.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
require('@swc-node/register');
const { extractDocument, OcrScheduler } = require('../libs/clinical/src/extract/index.ts');
const { pdfWithText, pngOfText } = require('../libs/clinical/src/extract/testing/builders.ts');

const MB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'medfolio-bench-extract-'));

/** Invented letter text, one line each. */
function lines(n, page = 1) {
  const words = [
    'blood',
    'pressure',
    'reviewed',
    'medication',
    'continued',
    'follow',
    'up',
    'clinic',
    'results',
    'normal',
    'patient',
    'advised',
  ];
  return Array.from(
    { length: n },
    (_, i) =>
      `${page}.${i + 1} ` + Array.from({ length: 9 }, (_, j) => words[(i * 5 + j * 7 + page) % words.length]).join(' '),
  );
}

async function ocrPage() {
  const png = await pngOfText(lines(40), { width: 2480, height: 3508 }, 42);
  const ocr = new OcrScheduler();
  try {
    let t = performance.now();
    const cold = await ocr.recognize(png);
    const coldMs = performance.now() - t;
    t = performance.now();
    const warm = await ocr.recognize(png);
    const warmMs = performance.now() - t;
    return { coldMs, warmMs, words: warm.words, confidence: Math.round(warm.confidence), coldWords: cold.words };
  } finally {
    await ocr.shutdown();
  }
}

/** In a fresh child: RSS after loading the code and reading a 1-page PDF, then the peak while reading 100 pages. */
function rssChild(path, warmPath) {
  const child = `
    require('@swc-node/register');
    const { extractDocument } = require('./libs/clinical/src/extract/index.ts');
    (async () => {
      await extractDocument({ documentId: 'w', filename: 'w.pdf', path: ${JSON.stringify(warmPath)} }, { ocr: false });
      global.gc?.();
      const base = process.memoryUsage().rss;
      let peak = base;
      const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 10);
      const t = performance.now();
      const result = await extractDocument({ documentId: 'b', filename: 'b.pdf', path: ${JSON.stringify(path)} }, { ocr: false });
      const ms = performance.now() - t;
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage().rss);
      process.stdout.write(JSON.stringify({ base, peak, ms, pages: result.texts.length, problems: result.problems.length }));
    })();`;
  const run = spawnSync(process.execPath, ['--expose-gc', '-e', child], {
    cwd: join(import.meta.dirname, '..'),
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
}

try {
  const pages = Array.from({ length: 100 }, (_, p) => lines(45, p + 1));
  const pdf = await pdfWithText(pages);
  const path = join(dir, 'hundred.pdf');
  writeFileSync(path, pdf);
  const warmPath = join(dir, 'one.pdf');
  writeFileSync(warmPath, await pdfWithText([lines(3)]));
  const rss = rssChild(path, warmPath);
  const growth = (rss.peak - rss.base) / MB;
  console.log(
    `100-page text PDF (${(pdf.length / MB).toFixed(1)} MB): ${rss.pages} pages in ${Math.round(rss.ms)} ms; RSS ${(rss.base / MB).toFixed(0)} -> peak ${(rss.peak / MB).toFixed(0)} MB, growth ${growth.toFixed(1)} MB (goal <= 128 MB) ${growth <= 128 ? 'PASS' : 'FAIL'}`,
  );

  const ocr = await ocrPage();
  console.log(
    `OCR of one A4 page at 300 dpi (40 lines): cold ${(ocr.coldMs / 1000).toFixed(1)} s (worker start included), warm ${(ocr.warmMs / 1000).toFixed(1)} s; ${ocr.words} words, confidence ${ocr.confidence}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
