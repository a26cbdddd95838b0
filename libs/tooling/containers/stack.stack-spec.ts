/* eslint-disable @nx/enforce-module-boundaries -- the stack test drives the containers with the system
   tests' own journeys and load (apps/system-e2e/src/support), so both always test the same thing; it
   runs only by `npm run stack:test`, never as part of another project. */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { Client } from 'pg';
import { FakeNppes, startSmtpSink, type SmtpSink } from '@medfolio/testing';
import { get, tokenFor } from '../../../apps/system-e2e/src/support/api';
import { accountJourney, type Mailbox } from '../../../apps/system-e2e/src/support/journey';
import { documentsJourney } from '../../../apps/system-e2e/src/support/documents-journey';
import { summaryJourney } from '../../../apps/system-e2e/src/support/summary-journey';
import {
  linkAccessJourney,
  providersJourney,
  type LicenseOperator,
} from '../../../apps/system-e2e/src/support/providers-journey';
import { walletJourney } from '../../../apps/system-e2e/src/support/wallet-journey';
import { signUp } from '../../../apps/system-e2e/src/support/billing-journey';
import { MixedLoad, checkAcknowledged, ok, tally } from '../../../apps/system-e2e/src/support/mixed-load';
import type { OwnPostgres, Patient } from '../../../apps/system-e2e/src/support/fault-rig';
import { waitFor } from '../../../apps/system-e2e/src/support/processes';
import { pngOfText, scannedPdf } from '../../clinical/src/extract/testing/builders';

/**
 * The product as its images run it (docker/stack.sh up): eight containers on the host network with
 * PostgreSQL, NATS and versitygw in containers of their own. This file only drives it over HTTP; the
 * SMTP sink and the fake NPI registry run here, on the ports the stack's settings name.
 */
const portBase = Number(process.env['STACK_PORT_BASE'] ?? 27000);
const stackDir = process.env['STACK_DIR'] ?? '/tmp/medfolio-stack';
const docker = process.env['DOCKER'] ?? 'docker';
const base = `http://127.0.0.1:${portBase}`;
const secrets = Object.fromEntries(
  readFileSync(path.join(stackDir, 'stack.env'), 'utf8')
    .split('\n')
    .filter((line) => line.includes('='))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
);
const databaseUrl = `postgres://medfolio:${secrets['POSTGRES_PASSWORD']}@127.0.0.1:${portBase + 432}/medfolio`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the stack of containers', () => {
  let smtp: SmtpSink;
  let nppes: FakeNppes;
  let mailbox: Mailbox;

  beforeAll(async () => {
    smtp = await startSmtpSink({ port: portBase + 25 });
    nppes = await FakeNppes.start(undefined, portBase + 26);
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
  });

  const logs = (...apps: string[]) =>
    apps
      .map((app) => {
        try {
          return `--- ${app} ---\n${execFileSync(docker, ['logs', '--tail', '30', `medfolio-stack-${app}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })}`;
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

  it('answers readiness for every service through the gateway', async () => {
    const health = await get<{ status: string; services: Record<string, { status: string }> }>(`${base}/api/health/`);
    expect(health.status).toBe(200);
    expect(Object.keys(health.body.services).sort()).toEqual([
      'audit',
      'billing',
      'connections',
      'documents',
      'identity',
      'notifications',
      'summary',
      'wallet',
    ]);
    expect(Object.values(health.body.services).every((s) => s.status === 'ok')).toBe(true);
    expect((await fetch(`${base}/`)).status).toBe(200);
  });

  it('takes a new patient through the whole account journey, with e-mail over real SMTP', async () => {
    await accountJourney(base, mailbox).catch(withLogs('gateway', 'identity', 'notifications'));
  });

  it('streams documents through the gateway to documents and S3, and back', async () => {
    const keys = path.join(stackDir, 'identity-data');
    const alice = await tokenFor(keys, crypto.randomUUID());
    const bob = await tokenFor(keys, crypto.randomUUID());
    await documentsJourney(base, alice, bob).catch(withLogs('gateway', 'documents'));
  });

  it("reads an uploaded document into a cited summary (summary reads the bytes over documents' HTTP)", async () => {
    await summaryJourney(base, mailbox).catch(withLogs('gateway', 'documents', 'summary'));
  });

  it('reads a scanned PDF and a sideways phone photo by OCR inside the summary image (read-only, non-root)', async () => {
    // The summary journey's PDF has a text layer; this one is pictures only, so the image's own
    // pdf.js, canvas, Tesseract core and English model must all be there and load.
    const dir = mkdtempSync(path.join(tmpdir(), 'medfolio-ocr-'));
    try {
      chmodSync(dir, 0o755);
      const page = await pngOfText(
        ['Discharge medication', 'Ramipril 5 mg once daily'],
        { width: 2480, height: 3508 },
        60,
      );
      writeFileSync(path.join(dir, 'scan.pdf'), await scannedPdf([page]), { mode: 0o644 });
      const sideways = await sharp(page).rotate(-90).withMetadata({ orientation: 6 }).jpeg().toBuffer();
      writeFileSync(path.join(dir, 'photo.jpg'), sideways, { mode: 0o644 });
      // Readable by the container's user 10001 whatever the umask (docker/stack.sh sets 077).
      for (const name of ['scan.pdf', 'photo.jpg']) chmodSync(path.join(dir, name), 0o644);
      const script = [
        "const { extractDocument } = require('/app/dist/libs/clinical/src/extract/extract.js');",
        '(async () => {',
        '  const out = {};',
        "  for (const name of ['scan.pdf', 'photo.jpg']) {",
        "    const r = await extractDocument({ documentId: 'd', filename: name, contentType: 'application/octet-stream', path: '/check/' + name }, { ocrConcurrency: 1 });",
        '    out[name] = { texts: r.texts.map((t) => ({ ocr: t.ocr, text: t.text })), problems: r.problems };',
        '  }',
        '  process.stdout.write(JSON.stringify(out));',
        '  process.exit(0);',
        '})();',
      ].join('\n');
      const output = execFileSync(
        docker,
        [
          'run',
          '--rm',
          '--read-only',
          '--tmpfs',
          '/tmp',
          '--cap-drop',
          'ALL',
          '--network',
          'none',
          '-v',
          `${dir}:/check:ro`,
          '--entrypoint',
          '/usr/local/bin/node',
          `medfolio/summary:${process.env['TAG'] ?? 'dev'}`,
          '-e',
          script,
        ],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 240_000 },
      );
      const read = { ocr: true, text: 'Discharge medication\nRamipril 5 mg once daily' };
      expect(JSON.parse(output)).toEqual({
        'scan.pdf': { texts: [read], problems: [] },
        'photo.jpg': { texts: [read], problems: [] },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const operator: LicenseOperator = {
    // The operators' review, as an operator runs it: the identity image with identity's settings.
    approve: async (npi) => {
      execFileSync(
        docker,
        [
          'run',
          '--rm',
          '--network',
          'host',
          '--read-only',
          '--tmpfs',
          '/tmp',
          '--env-file',
          path.join(stackDir, 'identity.env'),
          '-e',
          'PORT=0',
          '-v',
          `${path.join(stackDir, 'identity-data')}:/data`,
          'medfolio/identity:dev',
          'license-review',
          'approve',
          npi,
          '--operator',
          'stack-operator',
          '--note',
          'stack test',
        ],
        { stdio: 'pipe' },
      );
    },
  };

  it('lets a verified doctor see what a patient chose to show, and the patient see every look', async () => {
    await providersJourney(base, mailbox, operator).catch(withLogs('gateway', 'identity', 'documents', 'summary'));
  });

  it("keeps a link's contents behind its passcode and ends its grants with it", async () => {
    await linkAccessJourney(base, mailbox, operator).catch(withLogs('gateway', 'identity', 'documents', 'summary'));
  });

  it('issues a wallet pass signed with the development chain', async () => {
    await walletJourney(base, mailbox, path.join(stackDir, 'wallet-data')).catch(withLogs('gateway', 'wallet'));
  });

  it('each container killed (SIGKILL) under load comes back, with nothing acknowledged lost or unaudited', async () => {
    // New patients for each container killed: the Free plan's quota (5 here) stays far away.
    const newPatients = async (): Promise<Patient[]> => {
      const patients: Patient[] = [];
      for (const name of ['Kim', 'Lee', 'Max']) {
        const signed = await signUp(base, mailbox, name);
        patients.push({ email: signed.email, password: 'correct horse battery', access: signed.token });
      }
      return patients;
    };
    const pg = {
      query: async <T>(_database: string, sql: string, params: unknown[] = []): Promise<T[]> => {
        const client = new Client({ connectionString: databaseUrl });
        await client.connect();
        try {
          return (await client.query(sql, params)).rows as T[];
        } finally {
          await client.end();
        }
      },
    } as unknown as OwnPostgres;
    const report: string[] = [];
    for (const target of ['documents', 'audit', 'identity', 'gateway', 'nats', 'postgres']) {
      const load = new MixedLoad(base, await newPatients(), { perSecond: 6, timeoutMs: 15_000, keepPerPatient: 2 });
      load.start();
      try {
        await sleep(3000);
        const pid = execFileSync(docker, ['inspect', '-f', '{{.State.Pid}}', `medfolio-stack-${target}`], {
          encoding: 'utf8',
        }).trim();
        const killedAt = Date.now();
        process.kill(Number(pid), 'SIGKILL'); // the container's first process dies: a crash, not a stop
        await waitFor(
          `${target} restarted`,
          async () => {
            const state = execFileSync(
              docker,
              ['inspect', '-f', '{{.State.Pid}} {{.RestartCount}}', `medfolio-stack-${target}`],
              { encoding: 'utf8' },
            ).trim();
            return state.split(' ')[0] !== pid && state.split(' ')[0] !== '0' ? state : undefined;
          },
          60_000,
        );
        const healthy = await waitFor(
          '/api/health 200',
          async () =>
            (await get(`${base}/api/health/`).catch(() => ({ status: 0 }))).status === 200
              ? Date.now() - killedAt
              : undefined,
          90_000,
        );
        await sleep(5000);
        await load.stop();
        const failed = load.outcomes.filter((o) => !ok(o));
        const lastFailure = failed.length ? Math.max(...failed.map((o) => o.at + o.ms)) - killedAt : 0;
        const late = load.outcomes.filter((o) => o.at > killedAt + healthy + 2000 && !ok(o));
        const checked = await checkAcknowledged(base, pg, 'medfolio', load);
        const line = `${target}: healthy ${healthy} ms after the kill, last failure ${lastFailure} ms after; ${load.outcomes.length} requests, ${failed.length} failed; ${checked.uploads} acknowledged uploads listed and downloaded, ${checked.audited} 2xx answers audited\n  ${tally(load.outcomes)}`;
        report.push(line);
        console.log(line);
        expect(late).toEqual([]);
        expect(checked.uploads).toBeGreaterThan(0);
      } catch (error) {
        await load.stop();
        throw new Error(`${target}: ${(error as Error).message}\n${report.join('\n')}\n${logs(target, 'gateway')}`);
      }
    }
  }, 900_000);
});
