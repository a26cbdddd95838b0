// Text summary of V8 CPU profiles (node --cpu-prof): the top frames by self time and by total time, so a
// profile fits in docs/notes.md instead of a binary file. Percentages are of the BUSY samples (not idle)
// after start-up (samples under the main module's first run, i.e. loading code, are left out).
//
//   node bench/profile-summary.mjs <file.cpuprofile | directory> [top=15]
//   (bench/run.mjs writes profiles of every process with BENCH_CPU_PROF=<dir>)
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const [target, topArg] = process.argv.slice(2);
const top = Number(topArg ?? 15);

function frameName(node) {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url ? url.replace(/^file:\/\//, '').replace(/.*\/node_modules\//, '').replace(/.*\/dist\//, '') : '';
  return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
}

function summarise(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const startup = new Set();
  const isStartup = (id) => {
    for (let at = id; at !== undefined; at = parent.get(at)) {
      if (startup.has(at)) return true;
      const { functionName, url } = byId.get(at).callFrame;
      if (functionName === 'executeUserEntryPoint' || (url.includes('run_main_module'))) return startup.add(id), true;
    }
    return false;
  };
  const selfTicks = new Map();
  let idle = 0;
  let loading = 0;
  for (const id of profile.samples) {
    const name = byId.get(id).callFrame.functionName;
    if (name === '(idle)') idle += 1;
    else if (isStartup(id)) loading += 1;
    else selfTicks.set(id, (selfTicks.get(id) ?? 0) + 1);
  }
  const total = [...selfTicks.values()].reduce((a, b) => a + b, 0);
  const self = new Map();
  const inclusive = new Map();
  for (const [id, ticks] of selfTicks) {
    const name = frameName(byId.get(id));
    self.set(name, (self.get(name) ?? 0) + ticks);
    // Each ancestor frame (counted once per sample even when it recurses) gets the ticks.
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const n = frameName(byId.get(at));
      if (seen.has(n)) continue;
      seen.add(n);
      inclusive.set(n, (inclusive.get(n) ?? 0) + ticks);
    }
  }
  const pct = (t) => `${((t / total) * 100).toFixed(1).padStart(5)} %`;
  const all = profile.samples.length;
  const lines = [
    `${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s profiled: idle ${((idle / all) * 100).toFixed(0)} %, start-up ${((loading / all) * 100).toFixed(0)} %, busy ${((total / all) * 100).toFixed(0)} % (${total} samples; shares below are of these); GC ${pct(self.get('(garbage collector)') ?? 0)}`,
  ];
  lines.push('  self:');
  for (const [name, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`    ${pct(t)}  ${name}`);
  lines.push('  total (excluding the roots):');
  const roots = new Set(['(root)', '(program)', '(idle)', '(garbage collector)']);
  for (const [name, t] of [...inclusive].filter(([n]) => !roots.has(n)).sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`    ${pct(t)}  ${name}`);
  return lines.join('\n');
}

async function files(at) {
  if ((await stat(at)).isFile()) return [at];
  const out = [];
  for (const entry of await readdir(at, { withFileTypes: true })) {
    const full = path.join(at, entry.name);
    if (entry.isDirectory()) out.push(...(await files(full)));
    else if (entry.name.endsWith('.cpuprofile')) out.push(full);
  }
  return out;
}

for (const file of await files(target)) {
  console.log(`## ${path.relative(target, file) || path.basename(file)}`);
  console.log(summarise(JSON.parse(await readFile(file, 'utf8'))));
  console.log();
}
