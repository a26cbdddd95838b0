import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { clamdTestsRun, documentFiles as files, eicar, EICAR_SIGNATURE, startClamd, type Clamd } from '@medfolio/testing';
import { ANTIVIRUS_MESSAGES } from './services/virus-scan';
import { DocumentsHarness, newUserId } from './testing/documents-harness';

/**
 * The antivirus check with a real clamd (Debian's clamav-daemon, started here with the EICAR test
 * signature; see libs/testing/src/clamd.ts), on real PostgreSQL and the encrypted filesystem store:
 * an infected file is refused with its message and nothing is kept, a clean one is stored, a zip
 * is looked into, and a scanner that is down refuses uploads (503) unless CLAMD_FAIL_OPEN.
 * Where clamd is not installed these tests are skipped, except in CI (CI=true), where they fail.
 */
const describeWithClamd = clamdTestsRun() ? describe : describe.skip;
const BASE_ENV = { DOCUMENT_QUOTA_FREE: '100', STORAGE_URL_SIGNING_KEY: randomBytes(32).toString('base64url') };

/** A PDF (it passes the content checks) carrying the EICAR test string in a comment line. */
function infectedPdf(): Buffer {
  const pdf = files.pdf('Blood test results');
  const header = pdf.indexOf('\n') + 1;
  return Buffer.concat([pdf.subarray(0, header), Buffer.from('%'), eicar(), Buffer.from('\n'), pdf.subarray(header)]);
}

/** A loopback port where nothing listens. */
async function unusedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

async function expectNothingKept(h: DocumentsHarness): Promise<void> {
  expect(await h.storedObjects()).toEqual([]);
  expect(await h.sql(`SELECT id FROM documents.documents`)).toEqual([]);
  expect(await h.sql(`SELECT storage_key FROM documents.unfinished_uploads`)).toEqual([]);
  expect(await h.sql(`SELECT id FROM documents.outbox`)).toEqual([]);
}

describeWithClamd('antivirus (clamd INSTREAM) in the upload path', () => {
  let clamd: Clamd;
  beforeAll(async () => {
    clamd = await startClamd();
  }, 90_000);
  afterAll(() => clamd?.stop());

  describe('clamd up (TCP)', () => {
    const h = new DocumentsHarness({ storage: 'filesystem', bus: 'in-process', env: BASE_ENV });
    beforeAll(async () => {
      h.options.env = { ...h.options.env, CLAMD_URL: clamd.url };
      await h.start();
    }, 60_000);
    afterAll(() => h.stop());
    afterEach(() => h.emptyStorage());

    it('refuses a file carrying EICAR with a message naming it and the signature, keeps nothing, and audits the refusal', async () => {
      const user = newUserId();
      const answer = await h.upload(user, [{ name: 'labs.pdf', data: infectedPdf() }]);
      expect(answer).toEqual({
        status: 415,
        body: expect.objectContaining({ message: '"labs.pdf" contains a virus or malware (Eicar-Signature) and was not uploaded.' }),
      });
      await expectNothingKept(h);
      const record = await h.eventually('the refusal audited', async () =>
        h.audit.find((a) => a.action === 'document.upload' && a.patientId === user),
      );
      expect(record).toMatchObject({ outcome: 'denied', policy: `antivirus:${EICAR_SIGNATURE}.UNOFFICIAL` });
      expect(JSON.stringify(record)).not.toContain('labs.pdf');
    });

    it('refuses the whole request when one file of several is infected, keeping none of them', async () => {
      const answer = await h.upload(newUserId(), [
        { name: 'clean.pdf', data: files.pdf('clean') },
        { name: 'bad.pdf', data: infectedPdf() },
      ]);
      expect(answer.status).toBe(415);
      expect((answer.body as { message: string }).message).toBe(ANTIVIRUS_MESSAGES.infected('bad.pdf', EICAR_SIGNATURE));
      await expectNothingKept(h);
    });

    it('looks inside zips: EICAR in a file of a zip is refused (clamd unpacks archives)', async () => {
      const archive = files.zip([
        { name: 'record.pdf', data: files.pdf('record') },
        { name: 'readme.txt', data: Buffer.concat([Buffer.from('Read me\n'), eicar()]) },
      ]);
      const answer = await h.upload(newUserId(), [{ name: 'portal-export.zip', data: archive }]);
      expect(answer).toEqual({ status: 415, body: expect.objectContaining({ message: ANTIVIRUS_MESSAGES.infected('portal-export.zip', EICAR_SIGNATURE) }) });
      await expectNothingKept(h);
    });

    it('stores clean files, a large one (streamed through clamd) included', async () => {
      const big = files.bigPdf(6 * 1024 * 1024);
      const answer = await h.upload(newUserId(), [
        { name: 'labs.pdf', data: files.pdf('clean') },
        { name: 'scan.pdf', data: big },
        { name: 'export.zip', data: files.zip([{ name: 'a.pdf', data: files.pdf('a') }]) },
      ]);
      expect(answer.status).toBe(201);
      const stored = await h.sql<{ size: number }>(`SELECT size FROM documents.documents ORDER BY size`);
      expect(stored.map((r) => Number(r.size))).toContain(big.length);
      expect(stored).toHaveLength(3);
      await h.sql(`DELETE FROM documents.documents`);
    });
  });

  describe('clamd up (unix socket)', () => {
    const h = new DocumentsHarness({ storage: 'filesystem', bus: 'in-process', env: BASE_ENV });
    beforeAll(async () => {
      h.options.env = { ...h.options.env, CLAMD_SOCKET: clamd.socket };
      await h.start();
    }, 60_000);
    afterAll(() => h.stop());

    it('refuses EICAR and accepts a clean file', async () => {
      expect((await h.upload(newUserId(), [{ name: 'labs.pdf', data: infectedPdf() }])).status).toBe(415);
      await expectNothingKept(h);
      expect((await h.upload(newUserId(), [{ name: 'labs.pdf', data: files.pdf('clean') }])).status).toBe(201);
    });
  });

  describe('clamd down', () => {
    /** A port where nothing listens; and one that takes connections and closes them at once. */
    let downUrl = '';
    let hangUpUrl = '';
    const hangUp = createServer((socket) => socket.destroy());
    const closed = new DocumentsHarness({ storage: 'filesystem', bus: 'in-process', env: BASE_ENV });
    const closedHangingUp = new DocumentsHarness({ storage: 'filesystem', bus: 'in-process', env: BASE_ENV });
    const open = new DocumentsHarness({ storage: 'filesystem', bus: 'in-process', env: { ...BASE_ENV, CLAMD_FAIL_OPEN: 'true' } });
    beforeAll(async () => {
      downUrl = `tcp://127.0.0.1:${await unusedPort()}`;
      hangUp.listen(0, '127.0.0.1');
      await once(hangUp, 'listening');
      hangUpUrl = `tcp://127.0.0.1:${(hangUp.address() as { port: number }).port}`;
      closed.options.env = { ...closed.options.env, CLAMD_URL: downUrl };
      closedHangingUp.options.env = { ...closedHangingUp.options.env, CLAMD_URL: hangUpUrl };
      open.options.env = { ...open.options.env, CLAMD_URL: downUrl };
      await Promise.all([closed.start(), closedHangingUp.start(), open.start()]);
    }, 90_000);
    afterAll(async () => {
      await Promise.all([closed.stop(), closedHangingUp.stop(), open.stop()]);
      hangUp.close();
    });

    it('fails closed by default: 503 with a clear message, nothing stored', async () => {
      const answer = await closed.upload(newUserId(), [{ name: 'labs.pdf', data: files.pdf('clean') }]);
      expect(answer).toEqual({ status: 503, body: expect.objectContaining({ message: ANTIVIRUS_MESSAGES.unavailable('labs.pdf') }) });
      await expectNothingKept(closed);
    });

    it('fails closed when clamd drops the connection mid-scan: 503, nothing stored', async () => {
      const answer = await closedHangingUp.upload(newUserId(), [{ name: 'scan.pdf', data: files.bigPdf(2 * 1024 * 1024) }]);
      expect(answer).toEqual({ status: 503, body: expect.objectContaining({ message: ANTIVIRUS_MESSAGES.unavailable('scan.pdf') }) });
      await expectNothingKept(closedHangingUp);
    });

    it('with CLAMD_FAIL_OPEN=true keeps the upload unscanned', async () => {
      const answer = await open.upload(newUserId(), [{ name: 'labs.pdf', data: files.pdf('clean') }]);
      expect(answer.status).toBe(201);
      expect(await open.sql(`SELECT id FROM documents.documents`)).toHaveLength(1);
    });
  });
});
