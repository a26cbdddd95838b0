// Every npm package that the services' run-time code imports must be a production dependency in
// package.json: an install with `npm install --omit=dev` (or an image built that way) would lack a
// package listed only under devDependencies, and the process would fail on the first require.
// (The images copy what the code reaches whatever package.json calls it, app-deps.mjs, so they do not
// catch it.) The run-time code: apps/* and libs/* sources that the build compiles (not tests, test
// support, lint fixtures), less the browser app (Vite bundles it) and the test-only projects.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};
const dependencies = new Set(Object.keys(manifest.dependencies ?? {}));
const devDependencies = new Set(Object.keys(manifest.devDependencies ?? {}));

/** Projects whose code never runs in a service process. */
const NOT_RUN_TIME = new Set(['apps/web', 'apps/system-e2e', 'libs/testing', 'libs/tooling']);
/** Folders and files the build skips (libs/tooling/build.mjs) or that only tests load. */
const SKIPPED_DIRS = new Set(['lint-fixtures', 'node_modules', 'testing', 'e2e']);
const isTest = (name: string) => /\.(spec|int-spec|e2e-spec|stack-spec|soak-spec)\.ts$/.test(name) || name.endsWith('.d.ts');

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) files.push(...sourceFiles(full));
    } else if (entry.name.endsWith('.ts') && !isTest(entry.name)) files.push(full);
  }
  return files;
}

function runTimeFiles(): string[] {
  const files: string[] = [];
  for (const group of ['apps', 'libs']) {
    for (const project of readdirSync(path.join(root, group))) {
      if (NOT_RUN_TIME.has(`${group}/${project}`)) continue;
      try {
        files.push(...sourceFiles(path.join(root, group, project, 'src')));
      } catch {
        // a project without src/
      }
    }
  }
  return files;
}

const packageOf = (specifier: string) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? specifier);

/**
 * The packages a file loads at run time: import ... from 'x' (not `import type`, nor an import whose
 * every name is a type: the compiler drops both), export ... from 'x', import('x'), require('x').
 */
export function runTimeImports(code: string): string[] {
  const found: string[] = [];
  for (const match of code.matchAll(/^\s*(import|export)\s+([^'";]*?)\s+from\s+['"]([^'"]+)['"]/gm)) {
    const [, , clause = '', specifier = ''] = match;
    if (/^type\s/.test(clause)) continue;
    const braces = /^\{([^}]*)\}$/.exec(clause.trim());
    if (braces && braces[1]!.split(',').every((name) => !name.trim() || /^type\s/.test(name.trim()))) continue;
    found.push(specifier);
  }
  for (const match of code.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.push(match[1]!);
  for (const match of code.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1]!);
  return found
    .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:') && !specifier.startsWith('@medfolio/'))
    .map(packageOf)
    .filter((name) => !builtinModules.includes(name));
}

describe('run-time dependencies', () => {
  it('reads what it is given: value imports count, type-only imports do not', () => {
    const code = [
      "import { a } from 'pkg-a';",
      "import type { B } from 'pkg-b';",
      "import { type C, type D } from 'pkg-c';",
      "import { type E, f } from '@scope/pkg-e/sub';",
      "export * from 'pkg-g';",
      "import 'reflect-metadata';",
      "const h = await import('pkg-h');",
      "import { x } from './local';",
      "import { y } from 'node:fs';",
      "import { z } from '@medfolio/config';",
    ].join('\n');
    expect(runTimeImports(code).sort()).toEqual(['@scope/pkg-e', 'pkg-a', 'pkg-g', 'pkg-h', 'reflect-metadata']);
  });

  it('lists every package the services import at run time under dependencies, not only devDependencies', () => {
    const files = runTimeFiles();
    expect(files.length).toBeGreaterThan(100);
    const misfiled = new Map<string, string[]>();
    for (const file of files) {
      for (const name of runTimeImports(readFileSync(file, 'utf8'))) {
        if (dependencies.has(name)) continue;
        const where = misfiled.get(name) ?? [];
        where.push(path.relative(root, file));
        misfiled.set(name, where);
      }
    }
    const report = [...misfiled].map(
      ([name, where]) => `${name} (${devDependencies.has(name) ? 'a devDependency' : 'not in package.json'}): ${where.slice(0, 3).join(', ')}`,
    );
    expect(report).toEqual([]);
  });
});
