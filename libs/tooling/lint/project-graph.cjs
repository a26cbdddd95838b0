// @nx/enforce-module-boundaries reads Nx's cached project graph and silently skips itself when there
// is none ("No cached ProjectGraph is available. The rule will be skipped."): a plain `npx eslint` on
// a fresh clone checked no boundary at all. The root eslint.config.mjs awaits this first, so the rule
// always has a graph whose tags are those in the project.json files.
const { existsSync, statSync, globSync } = require('node:fs');
const path = require('node:path');

/** What the graph's nodes and tags come from: a cached graph older than any of these is stale. */
const GRAPH_SOURCES = ['nx.json', 'tsconfig.base.json', 'apps/*/project.json', 'libs/*/project.json', 'deploy/*/project.json'];

const BUILDING = 'MEDFOLIO_LINT_BUILDING_PROJECT_GRAPH';

function cachedGraphIsCurrent(root) {
  const dataDirectory = process.env.NX_WORKSPACE_DATA_DIRECTORY ?? path.join(root, '.nx', 'workspace-data');
  const cached = path.join(dataDirectory, 'project-graph.json');
  if (!existsSync(cached)) return false;
  const cachedAt = statSync(cached).mtimeMs;
  return globSync(GRAPH_SOURCES, { cwd: root }).every((file) => statSync(path.join(root, file)).mtimeMs <= cachedAt);
}

/** Computes (and caches) the project graph unless a current one is cached or Nx is running the task. */
async function ensureProjectGraph(root) {
  // Inside `nx run-many -t lint` Nx has just computed the graph for the task it runs.
  if (process.env.NX_TASK_TARGET_PROJECT) return;
  // Nx's own graph construction loads this config (@nx/eslint/plugin infers the lint targets from
  // it): building a graph from there would wait for itself.
  if (globalThis.NX_GRAPH_CREATION || globalThis.NX_PLUGIN_WORKER || process.env[BUILDING]) return;
  if (cachedGraphIsCurrent(root)) return;
  process.env[BUILDING] = '1'; // inherited by Nx's plugin workers
  // Plugins in their own processes: in-process (NX_ISOLATE_PLUGINS=false, as `npm test` sets for
  // speed) @nx/eslint/plugin would import this very config while it is still being evaluated, a
  // wait on itself that empties the event loop, and eslint would exit 0 having printed nothing.
  const isolate = process.env.NX_ISOLATE_PLUGINS;
  process.env.NX_ISOLATE_PLUGINS = 'true';
  try {
    const { createProjectGraphAsync } = require('@nx/devkit');
    await createProjectGraphAsync({ exitOnError: false });
  } finally {
    delete process.env[BUILDING];
    if (isolate === undefined) delete process.env.NX_ISOLATE_PLUGINS;
    else process.env.NX_ISOLATE_PLUGINS = isolate;
  }
}

module.exports = { ensureProjectGraph, cachedGraphIsCurrent };
