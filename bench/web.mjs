// Web app budgets, measured, not timed in unit tests:
//
//   npm run bench:web        (builds the product first; needs Debian's chromium: npm run tools:install)
//
// 1. First-load JavaScript of the landing page: every script index.html loads or preloads
//    (entry + modulepreload chunks), gzip-compressed as served. Budget: <= 150 KB.
// 2. Lighthouse (npm `lighthouse`, Chromium from CHROME_PATH, default /usr/bin/chromium) on the
//    landing page and /login of the real product (`npm start`'s launcher on embedded defaults),
//    mobile (Lighthouse's default: simulated slow 4G, 4x CPU slowdown) and desktop presets.
//    Budgets: performance >= 95, accessibility 100.
// 3. The Trends page's own JavaScript (gzip), which the first load never carries: its route chunk
//    with the chunks it imports that the first load has not (static), and the chart's chunk it
//    fetches on demand (visx and d3's scales, dynamic import). Reported, no budget.
//    Baseline in the same run: a static HTML page with the same headline and no JavaScript, served
//    by a bare Node http server, scored the same way (the best this machine's Lighthouse gives).
// Results also go to bench/results/web-<date>.json.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { build } from '../libs/tooling/build.mjs';
import { freePort, root } from './lib.mjs';

const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);

/** gzip size (bytes) of every script the landing page's index.html loads before any route code. */
async function firstLoadJs() {
  const dist = path.join(root, 'apps/web/dist');
  const html = await readFile(path.join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="([^"]+\.js)"/g)].map((m) => m[1]);
  const sizes = await Promise.all(files.map(async (file) => ({ file, gzip: gzipSync(await readFile(path.join(dist, file)), { level: 9 }).length })));
  return { files: sizes, totalKb: sizes.reduce((sum, s) => sum + s.gzip, 0) / 1024 };
}

/**
 * gzip size (bytes) of a lazily loaded page (`page`, its source file's name, e.g. 'TrendsPage'):
 * its chunk and every chunk it imports statically that the first load does not carry, and apart,
 * the chunks named `onDemandNames` it loads with import() (the chart), with their own static
 * imports not counted already. Other import()s (the QR code's library, say) are not the page's.
 */
async function lazyPageJs(page, firstLoad, onDemandNames) {
  const assets = path.join(root, 'apps/web/dist/assets');
  const entry = (await readdir(assets)).find((f) => f.startsWith(`${page}-`) && f.endsWith('.js'));
  if (!entry) throw new Error(`no chunk of ${page} in the web build`);
  const seen = new Set(firstLoad.map((f) => path.basename(f)));
  const gzip = async (file) => gzipSync(await readFile(path.join(assets, file)), { level: 9 }).length;
  async function walk(file, files, dynamic) {
    if (seen.has(file)) return;
    seen.add(file);
    files.push({ file: `/assets/${file}`, gzip: await gzip(file) });
    const code = await readFile(path.join(assets, file), 'utf8');
    for (const [, dep] of code.matchAll(/(?:from|import)\s*["'`]\.\/([^"'`]+\.js)["'`]/g)) await walk(dep, files, dynamic);
    for (const [, dep] of code.matchAll(/import\(\s*["'`]\.\/([^"'`]+\.js)["'`]\s*\)/g)) if (onDemandNames.some((name) => dep.startsWith(`${name}-`))) dynamic.push(dep);
  }
  const pageFiles = [];
  const dynamic = [];
  await walk(entry, pageFiles, dynamic);
  const onDemand = [];
  for (const dep of dynamic) await walk(dep, onDemand, []);
  const kb = (files) => Number((files.reduce((sum, f) => sum + f.gzip, 0) / 1024).toFixed(1));
  return { pageKb: kb(pageFiles), onDemandKb: kb(onDemand), files: pageFiles, onDemand };
}

async function lighthouseScores(url, preset) {
  const scores = [];
  for (let i = 0; i < runs; i += 1) {
    const chrome = await chromeLauncher.launch({
      chromePath,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const result = await lighthouse(url, { port: chrome.port, onlyCategories: ['performance', 'accessibility'], logLevel: 'error', output: 'json' }, preset === 'desktop' ? desktopConfig : undefined);
      const { categories, audits } = result.lhr;
      scores.push({
        performance: Math.round(categories.performance.score * 100),
        accessibility: Math.round(categories.accessibility.score * 100),
        fcpMs: Math.round(audits['first-contentful-paint']?.numericValue ?? NaN),
        lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? NaN),
        tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? NaN),
        cls: Number((audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
      });
    } finally {
      await chrome.kill();
    }
  }
  // The median run by performance score (Lighthouse's own advice for variance).
  scores.sort((a, b) => a.performance - b.performance);
  return scores[Math.floor(scores.length / 2)];
}

async function startProduct(port) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'medfolio-bench-web-'));
  const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'error' };
  for (const name of ['DATABASE_URL', 'NATS_URL', 'REDIS_URL', 'SMTP_URL', 'S3_ENDPOINT']) delete env[name];
  const child = spawn(process.execPath, [path.join(root, 'dist/apps/medfolio/src/main.js')], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 240; i += 1) {
    if (await fetch(`http://localhost:${port}/api/health/`).then((r) => r.ok, () => false)) return child;
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error('the product did not start');
}

async function startBaseline(port) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="Baseline"><title>Baseline</title></head><body><main><h1>Your medical history, one tap away</h1><p>Static baseline page.</p></main></body></html>`;
  const server = createHttpServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

await build();
const js = await firstLoadJs();
const trends = await lazyPageJs('TrendsPage', js.files.map((f) => f.file), ['TrendChart']);
const productPort = await freePort();
const baselinePort = await freePort();
const product = await startProduct(productPort);
const baseline = await startBaseline(baselinePort);
const pages = { landing: '/', login: '/login' };
const lighthouseResults = {};
try {
  for (const preset of ['mobile', 'desktop']) {
    lighthouseResults[preset] = { baseline: await lighthouseScores(`http://localhost:${baselinePort}/`, preset) };
    for (const [name, route] of Object.entries(pages)) {
      lighthouseResults[preset][name] = await lighthouseScores(`http://localhost:${productPort}${route}`, preset);
    }
  }
} finally {
  product.kill('SIGTERM');
  baseline.close();
}

const report = { date: new Date().toISOString(), firstLoadJs: { budgetKb: 150, totalKb: Number(js.totalKb.toFixed(1)), files: js.files }, trendsPageJs: trends, lighthouse: lighthouseResults, runs };
console.log(`\nFirst-load JS of the landing page: ${report.firstLoadJs.totalKb} KB gzip (budget 150 KB) in ${js.files.length} file(s)`);
console.log(`Trends page (/trends), not in the first load: ${trends.pageKb} KB gzip its own code, ${trends.onDemandKb} KB the chart (on demand)`);
for (const [preset, results] of Object.entries(lighthouseResults)) {
  console.log(`\nLighthouse ${preset} (median of ${runs}):`);
  for (const [name, s] of Object.entries(results)) {
    const ratio = name === 'baseline' ? '' : `  (${((s.performance / results.baseline.performance) * 100).toFixed(0)}% of baseline)`;
    console.log(`  ${name.padEnd(9)} performance ${s.performance}${ratio}  accessibility ${s.accessibility}  FCP ${s.fcpMs} ms  LCP ${s.lcpMs} ms  TBT ${s.tbtMs} ms  CLS ${s.cls}`);
  }
}
await mkdir(path.join(root, 'bench/results'), { recursive: true });
const file = path.join(root, 'bench/results', `web-${report.date.slice(0, 10)}.json`);
await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
console.log(`\nwritten to ${path.relative(root, file)}`);
