import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVICES, startRig, stopRig, type Rig, type FaultService, type Patient } from './support/fault-rig';
import { checkAcknowledged, MixedLoad, ok, tally } from './support/mixed-load';
import { nodeOptionsFor } from './support/processes';

/**
 * Soak: SOAK_MINUTES (default 10) of mixed load at a moderate rate (SOAK_RATE requests/s,
 * default 4; each patient's oldest upload beyond 25 is deleted, so the data stays the same size) on the multi-process shape with its own NATS and PostgreSQL (ports SOAK_PORT_BASE..,
 * default 28200..). Every process's RSS must stay flat within 10% and its open file descriptors must
 * not grow: the median of the first minute after a three-minute warm-up (the patients' data reaches its
 * steady size of KEEP documents each, and the processes' heaps settle) against the median of the last.
 * Beside RSS, each process's V8 heap in use and its external memory (Buffers) are read off its
 * /metrics and shown, so a growth can be told apart: a leak of JS objects grows the heap; a native
 * one (or allocator fragmentation) grows RSS alone. SOAK_HEAP_SNAPSHOTS=<dir> also writes a heap
 * snapshot of every product process at the end of the warm-up and at the end, to compare (on SIGWINCH:
 * Nest's shutdown hooks take SIGUSR2 as "stop", so Node's usual snapshot signal would stop the servers).
 * Writing a snapshot raises RSS for a while: such a run is for comparing heaps, not for judging RSS.
 * `npm test` runs it in the background while the other phases run (libs/tooling/scripts/test.mjs).
 */
const MINUTES = Number(process.env['SOAK_MINUTES'] ?? 10);
const RATE = Number(process.env['SOAK_RATE'] ?? 4);
const PORT_BASE = Number(process.env['SOAK_PORT_BASE'] ?? 28200);
const SAMPLE_MS = 5000;
const KEEP = 25;
const WARM_UP_MS = Number(process.env['SOAK_WARM_UP_SECONDS'] ?? 180) * 1000;
const WINDOW_MS = 60_000;
const RSS_GROWTH = 0.1;
/** Sockets come and go with the pools; a leak grows past this. */
const FD_SLACK = 3;

const SNAPSHOTS = process.env['SOAK_HEAP_SNAPSHOTS'];
const PRODUCT: FaultService[] = ['gateway', ...SERVICES];

interface Sample {
  at: number;
  rss: number;
  fds: number;
  heap?: number;
  external?: number;
  malloc?: number;
}

/** V8's heap in use and external memory, from a process's Prometheus metrics. */
async function heapOf(port: number): Promise<{ heap?: number; external?: number }> {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(2000) })).text();
    const value = (name: string) => {
      const found = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1];
      return found === undefined ? undefined : Number(found);
    };
    return { heap: value('nodejs_heap_size_used_bytes'), external: value('nodejs_external_memory_bytes') };
  } catch {
    return {};
  }
}

function sample(pid: number): Omit<Sample, 'at'> | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    return { rss: kb * 1024, fds: readdirSync(`/proc/${pid}/fd`).length, malloc: mallocHeap(pid) };
  } catch {
    return undefined;
  }
}

/** The resident part of the C heap grown by brk (`[heap]`: glibc's main arena), apart from V8's own mappings. */
function mallocHeap(pid: number): number | undefined {
  const smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  const at = smaps.indexOf(' [heap]\n');
  if (at < 0) return undefined;
  const kb = /\nRss:\s+(\d+) kB/.exec(smaps.slice(at, at + 400))?.[1];
  return kb === undefined ? undefined : Number(kb) * 1024;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

describe('soak: mixed load for SOAK_MINUTES', () => {
  let rig: Rig | undefined;
  let patients: Patient[];

  beforeAll(async () => {
    const snapshotOptions = SNAPSHOTS
      ? Object.fromEntries(PRODUCT.map((name) => [name, { NODE_OPTIONS: `${nodeOptionsFor(`apps/${name}/`)} --heapsnapshot-signal=SIGWINCH --diagnostic-dir=${path.resolve(SNAPSHOTS, name)}` }]))
      : {};
    if (SNAPSHOTS) for (const name of PRODUCT) mkdirSync(path.resolve(SNAPSHOTS, name), { recursive: true });
    rig = await startRig(PORT_BASE, snapshotOptions);
    patients = [await rig.product.registerPatient(), await rig.product.registerPatient()];
  }, 400_000);

  afterAll(async () => {
    await stopRig(rig);
  }, 60_000);

  it('keeps every process flat in memory and open handles', async () => {
    const { nats, pg, product } = rig!;
    const pids = new Map<string, number>();
    for (const name of PRODUCT) pids.set(name, product.pid(name)!);
    pids.set('nats-server', nats.pid!);
    const samples = new Map<string, Sample[]>([...pids.keys()].map((name) => [name, []]));
    // Steady state: each patient keeps their last KEEP uploads (older ones are deleted), so the data
    // stays the same size and a growing process means a leak, not more data.
    const load = new MixedLoad(product.base, patients, { perSecond: RATE, timeoutMs: 15_000, keepPerPatient: KEEP });
    const started = Date.now();
    load.start();
    const timer = setInterval(() => {
      for (const [name, pid] of pids) {
        const taken = sample(pid);
        if (!taken) continue;
        const entry: Sample = { at: Date.now() - started, ...taken };
        samples.get(name)!.push(entry);
        if (name !== 'nats-server') void heapOf(product.ports[name as FaultService]).then((h) => Object.assign(entry, h));
      }
    }, SAMPLE_MS);
    const snapshot = () => {
      if (SNAPSHOTS) for (const name of PRODUCT) process.kill(pids.get(name)!, 'SIGWINCH');
    };
    const warmUp = setTimeout(snapshot, WARM_UP_MS);
    try {
      await new Promise((r) => setTimeout(r, MINUTES * 60_000));
      snapshot();
    } finally {
      clearInterval(timer);
      clearTimeout(warmUp);
      await load.stop();
    }
    const end = Date.now() - started;
    const lines: string[] = [];
    const problems: string[] = [];
    for (const [name, list] of samples) {
      const first = list.filter((s) => s.at >= WARM_UP_MS && s.at < WARM_UP_MS + WINDOW_MS);
      const last = list.filter((s) => s.at >= end - WINDOW_MS);
      if (first.length < 3 || last.length < 3) throw new Error(`too few samples of ${name} (SOAK_MINUTES must be at least 5)`);
      const [rss0, rss1] = [median(first.map((s) => s.rss)), median(last.map((s) => s.rss))];
      const [fd0, fd1] = [median(first.map((s) => s.fds)), median(last.map((s) => s.fds))];
      const growth = (rss1 - rss0) / rss0;
      const heap = (list: Sample[], key: 'heap' | 'external' | 'malloc') => {
        const values = list.map((s) => s[key]).filter((v): v is number => v !== undefined);
        return values.length ? mb(median(values)) : '?';
      };
      const v8 = name === 'nats-server' ? '' : `, V8 heap used ${heap(first, 'heap')} → ${heap(last, 'heap')} MB, external ${heap(first, 'external')} → ${heap(last, 'external')} MB, C heap ${heap(first, 'malloc')} → ${heap(last, 'malloc')} MB`;
      // nats-server is shown, not judged: it holds the streams, which grow with every event by design.
      const judged = name !== 'nats-server';
      lines.push(`${name}: RSS ${mb(rss0)} → ${mb(rss1)} MB (${(growth * 100).toFixed(1)}%)${v8}, fds ${fd0} → ${fd1}${judged ? '' : ' (not judged)'}`);
      if (!judged) continue;
      if (growth > RSS_GROWTH) problems.push(`${name} RSS grew ${(growth * 100).toFixed(1)}%`);
      if (fd1 > fd0 + FD_SLACK) problems.push(`${name} open handles grew ${fd0} → ${fd1}`);
    }
    const failed = load.outcomes.filter((o) => !ok(o));
    const p = (q: number) => [...load.outcomes].map((o) => o.ms).sort((a, b) => a - b)[Math.floor(q * (load.outcomes.length - 1))];
    console.log(`soak ${MINUTES} min at ${RATE}/s: ${load.outcomes.length} requests (p50 ${p(0.5)} ms, p99 ${p(0.99)} ms)\n${lines.join('\n')}\n${tally(failed)}`);
    if (failed.length) console.log(`the gateway's last output:\n${product.processes.get('gateway')?.output().slice(-3000) ?? ''}`);
    expect(failed.length).toBeLessThanOrEqual(0);
    expect(problems).toEqual([]);
    await checkAcknowledged(product.base, pg, product.database, load);
  }, (Number(process.env['SOAK_MINUTES'] ?? 10) + 5) * 60_000);
});
