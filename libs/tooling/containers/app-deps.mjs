// Lists the npm packages one application needs at run time, so that its image carries those and
// no others (docker/Dockerfile, stage "deps"). All production dependencies together weigh several
// hundred MB (OCR engine and data, PDF.js, canvas, the OpenAI and Stripe clients, ...), more than the
// 250 MB an image may take with Node.js in it; each application needs only part of them.
//
//   node libs/tooling/containers/app-deps.mjs <dist> <app> <node_modules> [--copy <dest>]
//
// 1. Files: from <dist>/apps/<app>/src/main.js, every relative require() is followed, file by file
//    (except into the files embedded-only.json lists: only a process without DATABASE_URL loads them).
// 2. Packages: in the files reached, every require("x"), require.resolve("x/..."), import("x") and
//    every string or template literal that names an installed package ("pkg", "pkg/file", `pkg/${f}`)
//    names a package (a literal naming one that is never loaded only keeps it, never breaks it).
// 3. Closure: each package brings its dependencies, optionalDependencies and peerDependencies that are
//    installed (resolved as Node does, from the package's own directory upwards: nested copies
//    count). Peer dependencies cover packages loaded by name at run time (TypeORM's driver "pg",
//    Nest's "class-validator"); optional ones only when package.json's own dependencies list them.
//    A dependency that prune.json lists in the package's "neverLoads" is not followed.
// Prints the package directories, relative to <node_modules>, one a line; with --copy, copies each
// (without its own nested node_modules, whose needed packages are listed on their own) to <dest>, then
// removes the files prune.json lists (parts of packages the product never loads on Node.js; a rule with
// "exceptApps" leaves those applications' copies whole).
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const [distDir, app, modulesDir, flag, dest] = process.argv.slice(2);
if (!distDir || !app || !modulesDir || (flag && (flag !== '--copy' || !dest))) {
  console.error('usage: app-deps.mjs <dist> <app> <node_modules> [--copy <dest>]');
  process.exit(2);
}
const dist = path.resolve(distDir);
const nodeModules = path.resolve(modulesDir);
const entry = path.join(dist, 'apps', app, 'src', 'main.js');
if (!existsSync(entry)) {
  console.error(`app-deps: ${entry} does not exist; build first (npm run build)`);
  process.exit(1);
}

/** Names of the packages installed at the top level (scoped ones as "@scope/name"). */
function installedNames(dir) {
  const names = new Set();
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) for (const sub of readdirSync(path.join(dir, name))) names.add(`${name}/${sub}`);
    else names.add(name);
  }
  return names;
}
const installed = installedNames(nodeModules);

function resolveFile(base) {
  for (const candidate of [base, `${base}.js`, `${base}.cjs`, `${base}.json`, path.join(base, 'index.js')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

// Files only embedded mode loads (no DATABASE_URL): never followed, the images run in service mode.
const embeddedOnly = new Set(
  Object.keys(JSON.parse(readFileSync(new URL('./embedded-only.json', import.meta.url), 'utf8')).files).map((file) =>
    path.join(dist, file),
  ),
);

// 1 and 2: the files reached and the package names they mention.
const seenFiles = new Set();
const roots = new Set();
const queue = [entry];
const call = /(?:require|require\.resolve|import)\(\s*["'`]([^"'`]+)["'`]/g;
const literal = /["'`](@?[a-z0-9][\w.-]*(?:\/[\w.-]+)?)(?:[/"'`$])/gi;
while (queue.length > 0) {
  const file = queue.pop();
  if (seenFiles.has(file)) continue;
  seenFiles.add(file);
  if (!file.endsWith('.js') && !file.endsWith('.cjs')) continue;
  const code = readFileSync(file, 'utf8');
  for (const [, specifier] of code.matchAll(call)) {
    if (specifier.startsWith('.')) {
      const target = resolveFile(path.resolve(path.dirname(file), specifier));
      if (target && !embeddedOnly.has(target)) queue.push(target);
    } else if (!specifier.startsWith('node:')) {
      const name = packageOf(specifier);
      if (installed.has(name)) roots.add(name);
    }
  }
  for (const [, text] of code.matchAll(literal)) {
    const name = packageOf(text);
    if (installed.has(name)) roots.add(name);
  }
}

// 3: the closure, as directories relative to node_modules.
function locate(name, fromDir) {
  let dir = fromDir;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === path.dirname(nodeModules) || dir === path.dirname(dir)) return null;
    dir = path.dirname(dir);
  }
}
// An optional peer dependency counts only when the project depends on it itself (TypeORM lists every
// database driver as one; "pg" is the one installed). Type declarations never run.
const rootManifest = path.join(path.dirname(nodeModules), 'package.json');
const rootDependencies = new Set(
  existsSync(rootManifest) ? Object.keys(JSON.parse(readFileSync(rootManifest, 'utf8')).dependencies ?? {}) : [],
);
// Dependencies a package declares but never loads on Node.js (prune.json "neverLoads"): not followed.
const prune = JSON.parse(readFileSync(new URL('./prune.json', import.meta.url), 'utf8'));
const dirs = new Set();
const pending = [...roots].map((name) => locate(name, path.dirname(nodeModules))).filter(Boolean);
while (pending.length > 0) {
  const dir = pending.pop();
  if (dirs.has(dir)) continue;
  dirs.add(dir);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const optionalPeers = manifest.peerDependenciesMeta ?? {};
  const peers = Object.keys(manifest.peerDependencies ?? {}).filter(
    (name) => !optionalPeers[name]?.optional || rootDependencies.has(name),
  );
  const names = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
    ...peers,
  ]);
  const neverLoads = new Set(prune[manifest.name]?.neverLoads ?? []);
  for (const name of names) {
    if (name.startsWith('@types/') || neverLoads.has(name)) continue;
    const found = locate(name, dir);
    if (found) pending.push(found);
  }
}

const list = [...dirs].map((dir) => path.relative(nodeModules, dir)).sort();
if (flag === '--copy') {
  for (const rel of list) {
    const from = path.join(nodeModules, rel);
    const own = path.join(from, 'node_modules');
    cpSync(from, path.join(dest, rel), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (source) => source !== own && !source.startsWith(`${own}${path.sep}`),
    });
  }
  for (const rel of list) {
    const name = packageOf(rel.split(`node_modules${path.sep}`).pop());
    const rule = prune[name];
    if (!rule || typeof rule !== 'object' || rule.exceptApps?.includes(app)) continue;
    const dir = path.join(dest, rel);
    for (const entry of rule.remove ?? []) rmSync(path.join(dir, entry), { recursive: true, force: true });
    if (rule.keep) {
      const keep = new Set(rule.keep.map((entry) => path.join(dir, entry)));
      const sweep = (at) => {
        for (const entry of readdirSync(at, { withFileTypes: true })) {
          const full = path.join(at, entry.name);
          if (entry.isDirectory()) sweep(full);
          else if (!keep.has(full)) rmSync(full);
        }
      };
      sweep(dir);
    }
  }
  console.error(`app-deps: ${app}: ${list.length} packages (${roots.size} named by its code) copied to ${dest}`);
} else {
  process.stdout.write(`${list.join('\n')}\n`);
}
