// Compiles every app and lib (apps/*/src, libs/*/src) to dist/ with SWC: one file in, one file out,
// tsconfig path aliases (@medfolio/*) rewritten to relative requires. Type checking is `tsc`'s job
// (npm run typecheck); this step only emits, in about a second.
import { transformFile } from '@swc/core';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, writeFile, cp } from 'node:fs/promises';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const out = path.join(root, 'dist');
const swcOptions = require('./swc-options.cjs');
const { paths } = require('../../tsconfig.base.json').compilerOptions;

async function* sources(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      // Test support (fixtures, local servers for tests) never ships.
      if (['lint-fixtures', 'node_modules', 'testing'].includes(entry.name)) continue;
      yield* sources(full);
    } else if (/\.ts$/.test(entry.name) && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      yield full;
    }
  }
}

const aliasTargets = Object.fromEntries(
  Object.entries(paths).map(([alias, [target]]) => [alias, path.join(root, target).replace(/\.ts$/, '')]),
);

function rewriteAliases(code, file) {
  return code.replace(/require\("(@medfolio\/[a-z-]+(?:\/[a-z-]+)?)"\)/g, (match, alias) => {
    const target = aliasTargets[alias];
    if (!target) return match;
    let rel = path.relative(path.dirname(file), target);
    if (!rel.startsWith('.')) rel = `./${rel}`;
    return `require("${rel}")`;
  });
}

/** Newest modification time (ms) of the files under the given paths. */
async function newest(paths) {
  let latest = 0;
  for (const p of paths) {
    const info = await stat(p).catch(() => null);
    if (!info) continue;
    if (info.isDirectory()) {
      for (const entry of await readdir(p)) latest = Math.max(latest, await newest([path.join(p, entry)]));
    } else latest = Math.max(latest, info.mtimeMs);
  }
  return latest;
}

/** The web app (Vite), rebuilt only when a source file is newer than its last build (~10 s when it is). */
async function buildWeb() {
  const web = path.join(root, 'apps/web');
  const built = await stat(path.join(web, 'dist/index.html')).catch(() => null);
  const sources = await newest([path.join(web, 'src'), path.join(web, 'public'), path.join(web, 'index.html'), path.join(web, 'vite.config.mts'), path.join(root, 'package-lock.json'), path.join(root, 'libs/tooling/build.mjs')]);
  if (built && built.mtimeMs >= sources) return;
  const result = spawnSync(path.join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], { cwd: web, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the web app did not build (vite build failed; see above)');
  await prerenderPages(web);
  await precompress(path.join(web, 'dist'));
}

/**
 * Renders the public pages (src/prerender.tsx) into copies of index.html: dist/prerendered/*.html,
 * listed in dist/prerendered.json ({ "/login": "prerendered/login.html", ... }). The gateway answers
 * signed-out visitors of those addresses with them, so the page paints before the JavaScript runs;
 * main.tsx hydrates it.
 */
async function prerenderPages(web) {
  const ssrDir = path.join(root, 'tmp/web-prerender');
  const ssr = spawnSync(
    path.join(root, 'node_modules/.bin/vite'),
    ['build', '--ssr', 'src/prerender.tsx', '--outDir', ssrDir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: web, stdio: 'inherit' },
  );
  if (ssr.status !== 0) throw new Error('the page prerenderer did not build (vite build --ssr failed; see above)');
  const { PRERENDERED_PATHS, prerender, prerenderTitle } = await import(`${path.join(ssrDir, 'prerender.mjs')}?t=${Date.now()}`);
  const dist = path.join(web, 'dist');
  const shell = await readFile(path.join(dist, 'index.html'), 'utf8');
  const slot = /<div id="root">\s*<!--app-->[\s\S]*<!--\/app-->\s*<\/div>/;
  if (!slot.test(shell)) throw new Error('index.html has no <!--app--> ... <!--/app--> slot in <div id="root">');
  const table = {};
  await mkdir(path.join(dist, 'prerendered'), { recursive: true });
  for (const page of PRERENDERED_PATHS) {
    const markup = await prerender(page);
    const file = `prerendered/${page === '/' ? 'index' : page.slice(1).replaceAll('/', '-')}.html`;
    const title = prerenderTitle(page).replace(/&/g, '&amp;').replace(/</g, '&lt;');
    // Replacer functions: the markup is inserted as it is ($ signs in it mean nothing).
    const html = shell
      .replace(slot, () => `<div id="root" data-prerendered="${page}">${markup}</div>`)
      .replace(/<title>[^<]*<\/title>/, () => `<title>${title}</title>`)
      // The page paints from the HTML and its stylesheet alone; the scripts only take it over. So only
      // the small entry script loads with it (at low priority), and it fetches the rest after the
      // first paint (src/boot.ts): nothing competes with what the first paint needs.
      .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
      .replace(/<script type="module" /g, '<script type="module" fetchpriority="low" ');
    await writeFile(path.join(dist, file), html);
    table[page] = file;
  }
  await writeFile(path.join(dist, 'prerendered.json'), JSON.stringify(table));
}

/**
 * Brotli and gzip copies of every text asset, made once at build time at the highest levels, so
 * the gateway serves them compressed (@fastify/static preCompressed) with no work per request.
 */
async function precompress(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) await precompress(file);
    else if (/\.(js|css|html|svg|json|txt)$/.test(entry.name)) {
      const content = await readFile(file);
      await writeFile(`${file}.br`, brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
      await writeFile(`${file}.gz`, gzipSync(content, { level: 9 }));
    }
  }
}

export async function build({ web = true } = {}) {
  if (web) await buildWeb();
  await rm(out, { recursive: true, force: true });
  let count = 0;
  for (const top of ['apps', 'libs']) {
    for (const project of await readdir(path.join(root, top))) {
      if (top === 'libs' && project === 'testing') continue; // test support never ships
      for await (const file of sources(path.join(root, top, project, 'src'))) {
        const { code } = await transformFile(file, { ...swcOptions(), filename: file, swcrc: false, configFile: false });
        const rel = path.relative(root, file).replace(/\.ts$/, '.js');
        const target = path.join(out, rel);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, rewriteAliases(code, file));
        count += 1;
      }
    }
  }
  // Non-TypeScript assets that apps read at run time (the web app, the API's JSON Schemas) are copied as they are.
  for (const asset of ['apps/web/dist', 'libs/contracts/src/routes/api-schemas.json']) {
    await cp(path.join(root, asset), path.join(out, asset), { recursive: true }).catch(() => undefined);
  }
  return count;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const count = await build();
  console.log(`built ${count} files into dist/ in ${Date.now() - started} ms`);
}
