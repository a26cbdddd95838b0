import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { documentFiles } from '@medfolio/testing';
import { get } from './support/api';
import { uploadFiles } from './support/documents-journey';
import { startRig, stopRig, type Rig, type FaultService, type Patient } from './support/fault-rig';
import { checkAcknowledged, MixedLoad, ok, tally, type Outcome } from './support/mixed-load';
import { waitFor } from './support/processes';

/**
 * Fault injection on the multi-process shape: NATS stopped under load, PostgreSQL
 * restarted, every process SIGKILLed and restarted, the file store's disk full. The test owns its
 * NATS and PostgreSQL (ports FAULT_PORT_BASE.., default 28100..) so it can stop them; loopback only.
 * Each fault is bounded in time; the load is a fixed rate of sign-ins, lists and uploads.
 */
const PORT_BASE = Number(process.env['FAULT_PORT_BASE'] ?? 28100);
const NATS_DOWN_MS = Number(process.env['FAULT_NATS_DOWN_SECONDS'] ?? 30) * 1000;
const PG_DOWN_MS = 5000;
const RATE = 8;
/** A refused request must be answered within this, and the product back this long after the fault ends. */
const FAIL_FAST_MS = 2000;
const RECOVERY_MS = 5000;
/** The product's default request/reply time-out (RPC_TIMEOUT_MS). */
const RPC_TIMEOUT_MS = 5000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('faults: NATS, PostgreSQL, processes and the disk fail under load', () => {
  let rig: Rig | undefined;
  let patients: Patient[];

  beforeAll(async () => {
    rig = await startRig(PORT_BASE);
    patients = [await rig.product.registerPatient(), await rig.product.registerPatient()];
  }, 400_000);

  afterAll(async () => {
    await stopRig(rig);
  }, 60_000);

  const base = () => rig!.product.base;
  const health = () => get<{ status: string }>(`${base()}/api/health/`);

  /** The refusals while the fault lasted: 503 with a message, each within FAIL_FAST_MS. */
  function expectFailedFast(outcomes: Outcome[], what: string): void {
    const wrong = outcomes.filter((o) => !ok(o) && (o.status !== 503 || !o.message || o.ms > FAIL_FAST_MS));
    if (wrong.length) throw new Error(`${what}: ${wrong.length} request(s) not refused fast with 503 and a message: ${JSON.stringify(wrong.slice(0, 5))}\n${tally(outcomes)}`);
  }

  /** How long after `since` the last failure ended (0 if none): the recovery time. */
  function recoveredAfter(outcomes: Outcome[], since: number): number {
    const failures = outcomes.filter((o) => o.at >= since && !ok(o));
    return failures.length ? Math.max(...failures.map((o) => o.at + o.ms)) - since : 0;
  }

  async function untilHealthy(since: number): Promise<number> {
    await waitFor('/api/health 200', async () => ((await health()).status === 200 ? true : undefined), 30_000);
    return Date.now() - since;
  }

  it('NATS stopped under load: 503 fast, readiness false, back within 5 s, nothing acknowledged lost or unaudited', async () => {
    const { nats, pg, product } = rig!;
    const load = new MixedLoad(base(), patients, { perSecond: RATE, timeoutMs: 15_000 });
    load.start();
    try {
      await sleep(4000);
      const stoppedAt = Date.now();
      await nats.stop();
      const notReady = await waitFor('readiness false', async () => {
        const reply = await health();
        return reply.status === 503 && reply.body.status === 'unavailable' ? Date.now() - stoppedAt : undefined;
      }, 10_000);
      await sleep(Math.max(0, stoppedAt + NATS_DOWN_MS - Date.now()));
      const restartedAt = Date.now();
      await nats.start();
      const healthyAfter = await untilHealthy(restartedAt);
      await sleep(RECOVERY_MS + 3000);
      await load.stop();

      const before = load.outcomes.filter((o) => o.at + o.ms < stoppedAt);
      const during = load.since(stoppedAt + 1000, restartedAt);
      const after = load.since(restartedAt);
      console.log(`NATS down ${restartedAt - stoppedAt} ms; readiness false after ${notReady} ms, healthy ${healthyAfter} ms after restart; recovered ${recoveredAfter(after, restartedAt)} ms after restart\nbefore: ${tally(before)}\nduring: ${tally(during)}\nafter: ${tally(after)}`);
      expect(load.outcomes.filter((o) => o.status === 0)).toEqual([]); // every request answered, none hung
      expect(before.filter((o) => !ok(o))).toEqual([]);
      expect(during.length).toBeGreaterThan(RATE * (NATS_DOWN_MS / 1000 - 2) * 0.5);
      expectFailedFast(during, 'NATS down');
      expect(healthyAfter).toBeLessThanOrEqual(RECOVERY_MS);
      expect(recoveredAfter(after, restartedAt)).toBeLessThanOrEqual(RECOVERY_MS);
      expect(after.filter((o) => o.at > restartedAt + RECOVERY_MS && !ok(o))).toEqual([]);
      const checked = await checkAcknowledged(base(), pg, product.database, load);
      console.log(`NATS: ${checked.uploads} acknowledged uploads listed and downloaded, ${checked.audited} 2xx answers audited`);
      expect(checked.uploads).toBeGreaterThan(0);
    } catch (error) {
      await load.stop();
      throw new Error(`${(error as Error).message}\n${product.logs()}`);
    }
  }, 180_000);

  it('PostgreSQL restarted under load: 503 fast, back within 5 s, nothing acknowledged lost or unaudited', async () => {
    const { pg, product } = rig!;
    const load = new MixedLoad(base(), patients, { perSecond: RATE, timeoutMs: 15_000 });
    load.start();
    try {
      await sleep(3000);
      const stoppedAt = Date.now();
      pg.stop('fast');
      await sleep(PG_DOWN_MS);
      const restartedAt = Date.now();
      pg.start();
      const healthyAfter = await untilHealthy(restartedAt);
      await sleep(RECOVERY_MS + 3000);
      await load.stop();

      const during = load.since(stoppedAt + 1000, restartedAt);
      const after = load.since(restartedAt);
      console.log(`PostgreSQL down ${restartedAt - stoppedAt} ms; healthy ${healthyAfter} ms after restart; recovered ${recoveredAfter(after, restartedAt)} ms after restart\nduring: ${tally(during)}\nafter: ${tally(after)}`);
      expect(load.outcomes.filter((o) => o.status === 0)).toEqual([]);
      expect(during.length).toBeGreaterThan(RATE * 2);
      expectFailedFast(during, 'PostgreSQL down');
      expect(healthyAfter).toBeLessThanOrEqual(RECOVERY_MS);
      expect(recoveredAfter(after, restartedAt)).toBeLessThanOrEqual(RECOVERY_MS);
      const checked = await checkAcknowledged(base(), pg, product.database, load);
      console.log(`PostgreSQL: ${checked.uploads} acknowledged uploads listed and downloaded, ${checked.audited} 2xx answers audited`);
    } catch (error) {
      await load.stop();
      throw new Error(`${(error as Error).message}\n${product.logs()}`);
    }
  }, 120_000);

  it('each process SIGKILLed and restarted under load: no acknowledged write lost, no event handled twice', async () => {
    const { nats, pg, product } = rig!;
    const load = new MixedLoad(base(), patients, { perSecond: RATE, timeoutMs: 15_000 });
    const order: FaultService[] = ['audit', 'identity', 'notifications', 'documents', 'summary', 'wallet', 'billing', 'gateway'];
    const timings: string[] = [];
    load.start();
    try {
      await sleep(2000);
      for (const name of order) {
        const killedAt = Date.now();
        await product.killAndRestart(name);
        timings.push(`${name} ${Date.now() - killedAt} ms`);
        await sleep(1500);
      }
      await sleep(3000);
      await load.stop();
      console.log(`killed and ready again: ${timings.join(', ')}\n${tally(load.outcomes)}`);
      // While a service restarts its routes answer 503; a request the killed process had already taken
      // gets no reply and ends in 504 at the RPC time-out (5 s). Nothing else, and nothing hangs.
      // (While the gateway itself is down, nobody answers: those connections are refused.)
      const wrong = load.outcomes.filter((o) => o.status !== 0 && !ok(o) && ((o.status !== 503 && o.status !== 504) || !o.message || o.ms > RPC_TIMEOUT_MS + 2000));
      expect(wrong).toEqual([]);
      const refusedConnections = load.outcomes.filter((o) => o.status === 0 && !/fetch failed/.test(o.error ?? ''));
      expect(refusedConnections).toEqual([]);
      const checked = await checkAcknowledged(base(), pg, product.database, load);
      console.log(`kills: ${checked.uploads} acknowledged uploads listed and downloaded, ${checked.audited} 2xx answers audited`);

      // No event handled twice, none lost: each committed document was published once on DOCUMENTS,
      // noted once by summary, recorded once as uploaded in the audit log; AUDIT and the log agree.
      const connection = await connect({ servers: nats.url });
      try {
        const jsm = await jetstreamManager(connection);
        await waitFor('the consumers caught up', async () => {
          const [committed] = await pg.query<{ n: string }>(product.database, 'SELECT count(*) AS n FROM documents.documents');
          const [noted] = await pg.query<{ n: string }>(product.database, 'SELECT count(*) AS n FROM summary.documents');
          const [logged] = await pg.query<{ n: string }>(product.database, 'SELECT count(*) AS n FROM audit.audit_log');
          const audit = await jsm.streams.info('AUDIT');
          return Number(noted!.n) === Number(committed!.n) && Number(logged!.n) === audit.state.messages ? true : undefined;
        }, 60_000);
        const documents = await jsm.streams.info('DOCUMENTS', { subjects_filter: '>' });
        const [committed] = await pg.query<{ n: string }>(product.database, 'SELECT count(*) AS n FROM documents.documents');
        expect(documents.state.subjects?.['documents.document.uploaded.v1']).toBe(Number(committed!.n));
        const twice = await pg.query(product.database, `SELECT entity_id, count(*) AS n FROM audit.audit_log WHERE action = 'document.upload' AND outcome = 'success' GROUP BY entity_id HAVING count(*) > 1`);
        expect(twice).toEqual([]);
        const unpublished = await pg.query(product.database, 'SELECT id FROM documents.outbox WHERE published_at IS NULL');
        expect(unpublished).toEqual([]);
      } finally {
        await connection.close();
      }
    } catch (error) {
      await load.stop();
      throw new Error(`${(error as Error).message}\n${product.logs()}`);
    }
  }, 240_000);

  it("the file store's disk full: a clear error, no partial file, no document row", async () => {
    const { pg, product } = rig!;
    const small = mkdtempSync(path.join(tmpdir(), 'medfolio-fault-disk-'));
    // FAULT_DISK_FULL=rlimit tries the fallback where mounting works too.
    const mounted = process.env['FAULT_DISK_FULL'] !== 'rlimit' && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', small]).status === 0;
    let how: string;
    if (mounted) {
      how = 'a 2 MB tmpfs as the store';
      product.overrides.documents = { STORAGE_DIR: small };
    } else {
      // No mount here (an unprivileged sandbox): the file-size limit gives EFBIG for the same path.
      how = `RLIMIT_FSIZE 2 MB on documents (mount ${process.env['FAULT_DISK_FULL'] === 'rlimit' ? 'skipped by FAULT_DISK_FULL' : 'not permitted'})`;
      product.overrides.documents = { STORAGE_DIR: small };
      product.wrappers.documents = ['prlimit', '--fsize=2097152', '--'];
    }
    try {
      await product.killAndRestart('documents');
      const patient = patients[0]!;
      const [before] = await pg.query<{ n: string }>(product.database, 'SELECT count(*) AS n FROM documents.documents');
      // (A process killed mid-upload in the test before leaves its note for the janitor: only new ones count.)
      const unfinished = () => pg.query<{ storage_key: string }>(product.database, 'SELECT storage_key FROM documents.unfinished_uploads ORDER BY 1');
      const unfinishedBefore = await unfinished();
      const big = documentFiles.pdf('x'.repeat(3 * 1024 * 1024));
      const reply = await uploadFiles(product.base, patient.access, [{ name: 'large scan.pdf', data: big, type: 'application/pdf' }]);
      console.log(`disk full (${how}): ${reply.status} ${JSON.stringify(reply.body)}`);
      expect(reply.status).toBe(503);
      expect(reply.body.message).toBe('There is no room left to store "large scan.pdf", so it was not saved. Please try again later.');
      const files = listFiles(small);
      expect(files).toEqual([]);
      const [after] = await pg.query<{ n: string }>(product.database, 'SELECT count(*) AS n FROM documents.documents');
      expect(after!.n).toBe(before!.n);
      expect(await unfinished()).toEqual(unfinishedBefore);
      // A small file still fits, and the service stayed up.
      const fits = await uploadFiles(product.base, patient.access, [{ name: 'note.pdf', data: documentFiles.pdf('fits'), type: 'application/pdf' }]);
      expect(fits.status).toBe(201);
    } finally {
      delete product.overrides.documents;
      delete product.wrappers.documents;
      await product.killAndRestart('documents');
      if (mounted) spawnSync('umount', [small]);
      rmSync(small, { recursive: true, force: true });
    }
  }, 120_000);
});

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full));
    else out.push(path.relative(dir, full));
  }
  return out;
}
