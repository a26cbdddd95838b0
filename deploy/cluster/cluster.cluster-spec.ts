/* eslint-disable @nx/enforce-module-boundaries -- the cluster test drives the chart's release with the
   system tests' own journeys and load (apps/system-e2e/src/support), as the stack test does; it runs
   only by `npm run cluster:test` (deploy/cluster/test.sh), never as part of another project. */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import net from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import { FakeNppes, startSmtpSink, type SmtpSink } from '@medfolio/testing';
import { get, tokenFor } from '../../apps/system-e2e/src/support/api';
import { accountJourney, type Mailbox } from '../../apps/system-e2e/src/support/journey';
import { documentsJourney } from '../../apps/system-e2e/src/support/documents-journey';
import { summaryJourney } from '../../apps/system-e2e/src/support/summary-journey';
import { linkAccessJourney, providersJourney, type LicenseOperator } from '../../apps/system-e2e/src/support/providers-journey';
import { walletJourney } from '../../apps/system-e2e/src/support/wallet-journey';
import { signUp } from '../../apps/system-e2e/src/support/billing-journey';
import { MixedLoad, checkAcknowledged, ok, tally } from '../../apps/system-e2e/src/support/mixed-load';
import type { OwnPostgres, Patient } from '../../apps/system-e2e/src/support/fault-rig';
import { waitFor } from '../../apps/system-e2e/src/support/processes';

/**
 * The chart's release on the single-node cluster (deploy/cluster/up.sh). test.sh gives:
 * - CLUSTER_BASE_URL: the gateway through `kubectl port-forward` (the journeys);
 * - CLUSTER_SERVICE_URL: the gateway's Service (its cluster IP, reachable from the node through
 *   kube-proxy's rules): the load during the upgrade and the pod deletions goes there, because a
 *   port-forward is pinned to one pod and breaks when that pod goes;
 * - CLUSTER_PG_URL: PostgreSQL through a port-forward (the audit check);
 * - CLUSTER_DIR (the state: identity's signing keys, the wallet's test CA), CLUSTER_UPGRADE_TAG.
 * The SMTP sink and the fake NPI registry run here, on 127.0.0.1, with a TCP relay on the pod
 * bridge's address, where the release's settings point (SMTP_URL, NPI_REGISTRY_URL).
 */
const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run this through deploy/cluster/test.sh`);
  return value;
};
const base = env('CLUSTER_BASE_URL');
const serviceUrl = env('CLUSTER_SERVICE_URL');
const clusterDir = env('CLUSTER_DIR');
const namespace = process.env['NAMESPACE'] ?? 'medfolio';
const release = process.env['RELEASE'] ?? 'medfolio';
const bridge = process.env['POD_GATEWAY'] ?? '10.244.0.1';
const kubectl = (...args: string[]) =>
  execFileSync('kubectl', ['-n', namespace, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
// While a load runs, only asynchronous commands: a synchronous one stops the load's timer.
const run = async (command: string, ...args: string[]): Promise<string> =>
  (await promisify(execFile)(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })).stdout;
const kubectlAsync = (...args: string[]) => run('kubectl', '-n', namespace, ...args);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Relays connections on the bridge's address to the same port on 127.0.0.1. */
function relay(port: number): Promise<net.Server> {
  const server = net.createServer((inbound) => {
    const outbound = net.connect(port, '127.0.0.1');
    inbound.pipe(outbound).pipe(inbound);
    inbound.on('error', () => outbound.destroy());
    outbound.on('error', () => inbound.destroy());
  });
  return new Promise((resolve, reject) => server.once('error', reject).listen(port, bridge, () => resolve(server)));
}

describe('the chart on a single-node Kubernetes', () => {
  let smtp: SmtpSink;
  let nppes: FakeNppes;
  let relays: net.Server[];
  let mailbox: Mailbox;
  const figures: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtpSink({ port: 2525 });
    nppes = await FakeNppes.start(undefined, 2526);
    relays = [await relay(2525), await relay(2526)];
    mailbox = {
      textsTo: async (to) =>
        smtp.received
          .filter((m) => m.recipients.some((r) => r.toLowerCase() === to.toLowerCase()))
          .map((m) => `${m.subject}\n\n${m.text}`)
          .reverse(),
    };
    await waitFor('gateway health', async () => ((await get(`${base}/api/health/`)).status === 200 ? true : undefined));
  });

  afterAll(async () => {
    await smtp?.close();
    await nppes?.stop();
    await Promise.all((relays ?? []).map((s) => new Promise((r) => s.close(r))));
    console.log(`cluster figures:\n  ${figures.join('\n  ')}`);
  });

  const logs = (...apps: string[]) =>
    apps
      .map((app) => {
        try {
          return `--- ${app} ---\n${kubectl('logs', '--tail', '30', `deploy/${release}-${app}`)}`;
        } catch {
          return `--- ${app}: no log ---`;
        }
      })
      .join('\n');
  const withLogs =
    (...apps: string[]) =>
    (error: Error) => {
      throw new Error(`${error.message}\n${logs(...apps)}`);
    };

  it('answers readiness for every service through the gateway (port-forward)', async () => {
    const health = await get<{ status: string; services: Record<string, { status: string }> }>(`${base}/api/health/`);
    expect(health.status).toBe(200);
    expect(Object.keys(health.body.services).sort()).toEqual(['audit', 'billing', 'connections', 'documents', 'identity', 'notifications', 'summary', 'wallet']);
    expect(Object.values(health.body.services).every((s) => s.status === 'ok')).toBe(true);
    expect((await fetch(`${base}/`)).status).toBe(200);
  });

  it('takes a new patient through the whole account journey, with e-mail over real SMTP', async () => {
    await accountJourney(base, mailbox).catch(withLogs('gateway', 'identity', 'notifications'));
  });

  it('streams documents through the gateway to documents and S3, and back', async () => {
    const keys = path.join(clusterDir, 'identity-keys');
    const alice = await tokenFor(keys, crypto.randomUUID());
    const bob = await tokenFor(keys, crypto.randomUUID());
    await documentsJourney(base, alice, bob).catch(withLogs('gateway', 'documents'));
  });

  it('reads an uploaded document into a cited summary', async () => {
    await summaryJourney(base, mailbox).catch(withLogs('gateway', 'documents', 'summary'));
  });

  const operator: LicenseOperator = {
    // The operators' review, as an operator runs it in the cluster: in identity's pod.
    approve: async (npi) => {
      kubectl('exec', `deploy/${release}-identity`, '--', 'node', '/app/main.js', 'license-review', 'approve', npi, '--operator', 'cluster-operator', '--note', 'cluster test');
    },
  };

  it('lets a verified doctor see what a patient chose to show, and the patient see every look', async () => {
    await providersJourney(base, mailbox, operator).catch(withLogs('gateway', 'identity', 'documents', 'summary'));
  });

  it("keeps a link's contents behind its passcode and ends its grants with it", async () => {
    await linkAccessJourney(base, mailbox, operator).catch(withLogs('gateway', 'identity', 'documents', 'summary'));
  });

  it('issues a wallet pass signed with the configured chain', async () => {
    await walletJourney(base, mailbox, path.join(clusterDir, 'wallet-data')).catch(withLogs('gateway', 'wallet'));
  });

  // ---- operations under load, through the gateway's Service ----------------------------------
  const newPatients = async (): Promise<Patient[]> => {
    const patients: Patient[] = [];
    for (const name of ['Kim', 'Lee', 'Max']) {
      const signed = await signUp(serviceUrl, mailbox, name);
      patients.push({ email: signed.email, password: 'correct horse battery', access: signed.token });
    }
    return patients;
  };
  const pg = {
    query: async <T>(_database: string, sql: string, params: unknown[] = []): Promise<T[]> => {
      const client = new Client({ connectionString: env('CLUSTER_PG_URL') });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows as T[];
      } finally {
        await client.end();
      }
    },
  } as unknown as OwnPostgres;
  const podsOf = async (app: string): Promise<string[]> =>
    (await kubectlAsync('get', 'pods', '-l', `app.kubernetes.io/instance=${release},app.kubernetes.io/component=${app}`, '-o', 'jsonpath={range .items[*]}{.metadata.name}{" "}{.status.phase}{" "}{.metadata.deletionTimestamp}{"\\n"}{end}'))
      .split('\n')
      .filter(Boolean);
  const readyCount = async (app: string): Promise<number> =>
    Number((await kubectlAsync('get', 'deploy', `${release}-${app}`, '-o', 'jsonpath={.status.readyReplicas}')) || 0);

  it('upgrades to another image tag with no failed request during the rollout', async () => {
    const tag = env('CLUSTER_UPGRADE_TAG');
    const load = new MixedLoad(serviceUrl, await newPatients(), { perSecond: 6, timeoutMs: 15_000, keepPerPatient: 2 });
    load.start();
    const started = Date.now();
    try {
      await sleep(3000);
      const chart = path.resolve(__dirname, '../../helm/medfolio');
      await run('helm', 'upgrade', release, chart, '-n', namespace, '--reuse-values', '--set', `global.image.tag=${tag}`, '--wait', '--wait-for-jobs', '--timeout', '15m');
      const rolled = Date.now() - started;
      await sleep(5000);
      await load.stop();
      const images = kubectl('get', 'deploy', '-l', `app.kubernetes.io/instance=${release}`, '-o', 'jsonpath={range .items[*]}{.spec.template.spec.containers[0].image}{"\\n"}{end}').split('\n').filter(Boolean);
      const failed = load.outcomes.filter((o) => !ok(o));
      const checked = await checkAcknowledged(serviceUrl, pg, 'medfolio', load);
      const line = `helm upgrade to :${tag}: rolled out in ${rolled} ms; ${load.outcomes.length} requests during it, ${failed.length} failed; ${checked.uploads} acknowledged uploads listed and downloaded, ${checked.audited} answers audited\n    ${tally(load.outcomes)}`;
      figures.push(line);
      console.log(line);
      expect(images.filter((i) => !i.endsWith(`:${tag}`))).toEqual([]);
      expect(failed.map((o) => `${o.op} ${o.status} ${o.error ?? o.message ?? ''}`)).toEqual([]);
      expect(checked.uploads).toBeGreaterThan(0);
    } finally {
      await load.stop();
    }
  }, 1_200_000);

  for (const app of ['gateway', 'documents']) {
    it(`a ${app} pod deleted under load comes back, with nothing acknowledged lost or unaudited`, async () => {
      const load = new MixedLoad(serviceUrl, await newPatients(), { perSecond: 6, timeoutMs: 15_000, keepPerPatient: 2 });
      const want = await readyCount(app);
      load.start();
      try {
        await sleep(3000);
        const victim = (await podsOf(app))[0]!.split(' ')[0]!;
        const deletedAt = Date.now();
        await kubectlAsync('delete', 'pod', victim, '--wait=false');
        const back = await waitFor(
          `${app} back to ${want} ready pods`,
          async () => {
            const pods = (await podsOf(app)).filter((p) => !p.startsWith(`${victim} `));
            return pods.length >= want && (await readyCount(app)) >= want ? Date.now() - deletedAt : undefined;
          },
          180_000,
        );
        await sleep(5000);
        await load.stop();
        const failed = load.outcomes.filter((o) => !ok(o));
        const lastFailure = failed.length ? Math.max(...failed.map((o) => o.at + o.ms)) - deletedAt : 0;
        const late = load.outcomes.filter((o) => o.at > deletedAt + back + 2000 && !ok(o));
        const checked = await checkAcknowledged(serviceUrl, pg, 'medfolio', load);
        const line = `${app} pod deleted (${want} ready before): ${want} ready again ${back} ms later, last failure ${lastFailure} ms after; ${load.outcomes.length} requests, ${failed.length} failed; ${checked.uploads} acknowledged uploads listed and downloaded, ${checked.audited} answers audited\n    ${tally(load.outcomes)}`;
        figures.push(line);
        console.log(line);
        expect(late).toEqual([]);
        // With two gateway pods behind the Service, losing one costs no request.
        if (want >= 2) expect(failed.map((o) => `${o.op} ${o.status} ${o.error ?? o.message ?? ''}`)).toEqual([]);
        expect(checked.uploads).toBeGreaterThan(0);
      } finally {
        await load.stop();
      }
    }, 600_000);
  }

  it('has a sane HorizontalPodAutoscaler and PodDisruptionBudgets', async () => {
    const hpa = JSON.parse(kubectl('get', 'hpa', `${release}-gateway`, '-o', 'json')) as {
      spec: { minReplicas: number; maxReplicas: number; scaleTargetRef: { kind: string; name: string } };
      status: { currentReplicas?: number; currentMetrics?: { resource?: { current?: { averageUtilization?: number } } }[] };
    };
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: `${release}-gateway` });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
    expect(hpa.status.currentReplicas).toBeGreaterThanOrEqual(hpa.spec.minReplicas);
    const cpu = await waitFor(
      'the HPA to read the gateway pods CPU (metrics-server)',
      async () => {
        const now = JSON.parse(kubectl('get', 'hpa', `${release}-gateway`, '-o', 'json')) as typeof hpa;
        const value = now.status.currentMetrics?.[0]?.resource?.current?.averageUtilization;
        return value === undefined ? undefined : value;
      },
      120_000,
    ).catch(() => undefined);
    const pdbs = JSON.parse(kubectl('get', 'pdb', '-o', 'json')) as {
      items: { metadata: { name: string }; spec: { maxUnavailable?: number | string; selector: { matchLabels: Record<string, string> } }; status: { expectedPods: number; currentHealthy: number; disruptionsAllowed: number } }[];
    };
    const line = `HPA ${release}-gateway: ${hpa.spec.minReplicas}..${hpa.spec.maxReplicas} pods, ${hpa.status.currentReplicas} now, CPU ${cpu ?? 'unknown'}%; PDBs: ${pdbs.items.map((p) => `${p.metadata.name.replace(`${release}-`, '')} ${p.status.currentHealthy}/${p.status.expectedPods} healthy, ${p.status.disruptionsAllowed} allowed`).join(', ')}`;
    figures.push(line);
    console.log(line);
    expect(cpu).toBeDefined();
    expect(pdbs.items.length).toBe(8);
    for (const pdb of pdbs.items) {
      expect(pdb.spec.maxUnavailable).toBe(1);
      expect(pdb.status.expectedPods).toBeGreaterThan(0);
      expect(pdb.status.currentHealthy).toBe(pdb.status.expectedPods);
      // One pod may go at a time: a single-pod service allows its one, the gateway one of its two.
      expect(pdb.status.disruptionsAllowed).toBe(1);
    }
  });
});
