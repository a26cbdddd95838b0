import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestMicroservice } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { encodeShlink, encryptShlFile, newShlKey } from '@medfolio/clinical';
import { CONNECTIONS_SHL_SUBJECTS, type CallerIdentity, DOCUMENTS_SUBJECTS, type ReceiveShlReply, SHL_RECEIVE_MESSAGES, SUBJECTS } from '@medfolio/contracts';
import { callerFromHeaders, createRpcClient, InProcessBroker, InProcessEventBus, InProcessServer, type RpcClient } from '@medfolio/messaging';
import { ShlSender } from '@medfolio/testing';
import { ConnectionsAppModule } from './app.module';
import { ConnectionsConfig } from './config';
import { ShlFetchError, ShlFetchRepository } from './repositories/shl-fetch.repository';

/**
 * Receiving SMART Health Links: the whole connections service on a real PostgreSQL over the
 * in-process request/reply transport, against a clinic's link server made with an independent SHL
 * library (kill-the-clipboard, served over real local HTTP) and links made with the product's own SHL
 * code (@medfolio/clinical, as the summary service shares summaries). The documents service's
 * internal upload route is a local HTTP server that keeps what it is sent (the system tests use the
 * real one).
 */
const databaseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const INTERNAL_TOKEN = 'shl-int-internal-token-0123456789';

interface Uploaded {
  id: string;
  owner: string | undefined;
  filename: string;
  type: string;
  json: Record<string, unknown>;
  /** Where it came from (X-Document-Source), as the trends' points say it. */
  source: string | undefined;
}

const bundle = (text: string) => ({
  resourceType: 'Bundle',
  type: 'collection',
  entry: [
    { fullUrl: 'urn:uuid:11111111-1111-4111-8111-111111111111', resource: { resourceType: 'Patient', id: 'p1', name: [{ family: 'Testperson', given: ['Alex'] }] } },
    { fullUrl: 'urn:uuid:22222222-2222-4222-8222-222222222222', resource: { resourceType: 'Condition', id: 'c1', subject: { reference: 'urn:uuid:11111111-1111-4111-8111-111111111111' }, code: { text } } },
  ],
});
const immunization = () => ({
  resourceType: 'Bundle',
  type: 'collection',
  entry: [
    { fullUrl: 'resource:0', resource: { resourceType: 'Patient', name: [{ family: 'Testperson', given: ['Alex'] }], birthDate: '1980-02-03' } },
    { fullUrl: 'resource:1', resource: { resourceType: 'Immunization', status: 'completed', vaccineCode: { coding: [{ system: 'http://hl7.org/fhir/sid/cvx', code: '207' }] }, patient: { reference: 'resource:0' }, occurrenceDateTime: '2026-01-15' } },
  ],
});

describe('receiving SMART Health Links (PostgreSQL, request/reply, a local link server)', () => {
  let app: INestMicroservice;
  let rpc: RpcClient;
  let bus: InProcessEventBus;
  let sender: ShlSender;
  let documents: Server;
  let config: ConnectionsConfig;
  const uploads: Uploaded[] = [];
  /** Documents deleted through documents' delete subject (the receiver's undo). */
  const deleted: string[] = [];
  let refuseUploadsAfter = Infinity;
  const caller = (userId: string): CallerIdentity => ({ userId, roles: ['patient'], correlationId: randomUUID() });
  const receive = (userId: string, shlink: string, passcode?: string) =>
    rpc.send(CONNECTIONS_SHL_SUBJECTS.receive, { shlink, ...(passcode !== undefined ? { passcode } : {}) }, caller(userId)) as Promise<ReceiveShlReply>;
  const failure = async (work: Promise<unknown>) => {
    try {
      await work;
    } catch (error) {
      return error as { code: string; message: string; details?: Record<string, string[]> };
    }
    throw new Error('expected a failure');
  };
  const audits = () =>
    (bus.publish as jest.Mock).mock.calls.filter(([subject]) => subject === SUBJECTS.audit.recorded).map(([, event]) => event as { action: string; patientId?: string; entityId?: string; outcome: string });

  beforeAll(async () => {
    sender = await ShlSender.start();
    // The documents service's internal upload route, as connections calls it (multipart, internal token, caller header).
    documents = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          if (req.url !== '/internal/documents' || req.headers['x-internal-token'] !== INTERNAL_TOKEN) {
            res.writeHead(403).end();
            return;
          }
          if (uploads.length >= refuseUploadsAfter) {
            res.writeHead(402, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: 'Your plan is full.' }));
            return;
          }
          const form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
          const file = form.get('files') as File;
          const owner = callerFromHeaders((name) => req.headers[name.toLowerCase()] as string | undefined).userId;
          const id = randomUUID();
          const source = req.headers['x-document-source'];
          uploads.push({ id, owner, filename: file.name, type: file.type, json: JSON.parse(await file.text()) as Record<string, unknown>, source: typeof source === 'string' ? decodeURIComponent(source) : undefined });
          res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ documents: [{ id }] }));
        })();
      });
    });
    await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
    // The documents service's delete subject, as the receiver calls it to undo a half-done import.
    InProcessBroker.register(DOCUMENTS_SUBJECTS.delete, async (data) => {
      deleted.push((data as { document_id: string }).document_id);
      return { deleted: true };
    });
    config = Object.assign(new ConnectionsConfig(), {
      databaseUrl,
      databasePoolSize: 2,
      tokenKey: randomBytes(32).toString('base64'),
      allowLoopbackHttp: true,
      httpTimeoutMs: 3000,
      syncIntervalMinutes: 0,
      internalApiToken: INTERNAL_TOKEN,
      documentsInternalUrl: `http://127.0.0.1:${(documents.address() as AddressInfo).port}`,
    });
    bus = new InProcessEventBus();
    jest.spyOn(bus, 'publish');
    const moduleRef = await Test.createTestingModule({ imports: [ConnectionsAppModule.register({ config, eventBus: bus, http: false })] }).compile();
    app = moduleRef.createNestMicroservice({ strategy: new InProcessServer(), logger: false });
    await app.listen();
    rpc = createRpcClient('connections-shl-int-test', { timeoutMs: 20_000 });
  }, 60_000);

  afterAll(async () => {
    InProcessBroker.unregister(DOCUMENTS_SUBJECTS.delete);
    await app?.close();
    await sender?.stop();
    documents?.closeAllConnections();
    await new Promise((resolve) => documents?.close(resolve));
  });

  beforeEach(() => {
    uploads.length = 0;
    refuseUploadsAfter = Infinity;
  });

  it('a kill-the-clipboard link with a passcode: asks for it, counts wrong ones down, then imports the bundle as a document of the caller named after the label and the day; audited', async () => {
    const link = await sender.link({ files: [{ fhir: bundle('Asthma (from a clinic link)') }], label: 'Springfield Clinic', passcode: 'open-sesame', attempts: 3 });
    const user = randomUUID();

    const needed = await failure(receive(user, link.shlink));
    expect(needed).toMatchObject({ code: 'FORBIDDEN', message: SHL_RECEIVE_MESSAGES.passcodeNeeded, details: { passcode: [SHL_RECEIVE_MESSAGES.passcodeNeeded] } });
    expect(link.requests).toHaveLength(0); // asked before contacting the clinic's server
    const wrong = await failure(receive(user, link.shlink, 'guess'));
    expect(wrong).toMatchObject({ code: 'FORBIDDEN', message: 'Wrong passcode. 2 attempts left.', details: { remaining_attempts: ['2'] } });
    expect(uploads).toHaveLength(0);

    const reply = await receive(user, `https://viewer.example/view#${link.shlink}`, 'open-sesame');
    const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date());
    expect(reply).toEqual({ label: 'Springfield Clinic', imported: [{ document_id: uploads[0]!.id, name: `SMART Health Link from Springfield Clinic, received ${day}.json`, kind: 'fhir-bundle' }] });
    expect(uploads).toEqual([{ id: reply.imported[0]!.document_id, owner: user, filename: reply.imported[0]!.name, type: 'application/fhir+json', json: bundle('Asthma (from a clinic link)'), source: 'SMART Health Link from Springfield Clinic' }]);
    expect(link.requests.at(-1)).toEqual({ recipient: 'Medfolio (on behalf of the patient)', passcode: 'open-sesame' });
    expect(audits().filter((a) => a.action === 'connections.shl.receive').at(-1)).toMatchObject({ patientId: user, entityId: reply.imported[0]!.document_id, outcome: 'success' });
  });

  it('the last wrong passcode locks the link: it is then "no longer valid"', async () => {
    const link = await sender.link({ files: [{ fhir: bundle('x') }], passcode: 'right', attempts: 1 });
    expect(await failure(receive(randomUUID(), link.shlink, 'wrong'))).toMatchObject({ code: 'FORBIDDEN', message: 'Wrong passcode. 0 attempts left.' });
    expect(await failure(receive(randomUUID(), link.shlink, 'right'))).toMatchObject({ code: 'NOT_FOUND', message: SHL_RECEIVE_MESSAGES.noLongerValid });
  });

  it('expired by its exp: refused without contacting the server', async () => {
    const link = await sender.link({ files: [{ fhir: bundle('x') }], expiresAt: new Date(Date.now() + 60_000) });
    const expired = ShlSender.rewrite(link.shlink, { exp: Math.floor(Date.now() / 1000) - 60 });
    expect(await failure(receive(randomUUID(), expired))).toMatchObject({ code: 'VALIDATION_FAILED', message: SHL_RECEIVE_MESSAGES.expired });
    expect(link.requests).toHaveLength(0);
    // The same link within its time is received.
    expect((await receive(randomUUID(), link.shlink)).imported).toHaveLength(1);
  });

  it('a revoked link (404 at the server) is "no longer valid"; text that is no link is said plainly', async () => {
    const link = await sender.link({ files: [{ fhir: bundle('x') }] });
    link.revoke();
    expect(await failure(receive(randomUUID(), link.shlink))).toMatchObject({ code: 'NOT_FOUND', message: SHL_RECEIVE_MESSAGES.noLongerValid });
    for (const text of ['hello', 'shlink:/not-base64-json!', `shlink:/${Buffer.from('{"url":"https://x.example/m"}').toString('base64url')}`, 'https://example.com/page#nothing']) {
      expect(await failure(receive(randomUUID(), text))).toMatchObject({ code: 'VALIDATION_FAILED', message: SHL_RECEIVE_MESSAGES.notShl });
    }
  });

  it('a tampered file and a wrong key: "could not be opened", and nothing is added', async () => {
    const link = await sender.link({ files: [{ fhir: bundle('first') }, { fhir: bundle('second') }], embeddedLengthMax: 1_000_000 });
    const wrongKey = ShlSender.rewrite(link.shlink, { key: newShlKey() });
    expect(await failure(receive(randomUUID(), wrongKey))).toMatchObject({ code: 'VALIDATION_FAILED', message: SHL_RECEIVE_MESSAGES.undecryptable });

    // The same manifest with one byte of the second file's ciphertext changed (GCM's tag no longer matches).
    const manifest = (await (await fetch(link.url, { method: 'POST', body: JSON.stringify({ recipient: 'test' }) })).json()) as { files: { contentType: string; embedded: string }[] };
    const parts = manifest.files[1]!.embedded.split('.');
    parts[3] = `${parts[3]![0] === 'A' ? 'B' : 'A'}${parts[3]!.slice(1)}`;
    manifest.files[1]!.embedded = parts.join('.');
    const tamperedUrl = sender.serve(`/tampered/${randomUUID()}`, { status: 200, contentType: 'application/json', body: JSON.stringify(manifest) });
    const tampered = ShlSender.rewrite(link.shlink, { url: tamperedUrl });
    expect(await failure(receive(randomUUID(), tampered))).toMatchObject({ code: 'VALIDATION_FAILED', message: SHL_RECEIVE_MESSAGES.undecryptable });
    expect(uploads).toHaveLength(0);
    // Untouched, both files arrive (embedded in the manifest this time).
    expect((await receive(randomUUID(), link.shlink)).imported.map((i) => i.name)).toEqual([expect.stringMatching(/^SMART Health Link from a clinic, received .*\.json$/), expect.stringMatching(/\(2\)\.json$/)]);
  });

  it('a U link: the one file straight from its URL, asked for with the recipient', async () => {
    const link = await sender.link({ files: [{ fhir: bundle('Direct file condition') }], directFile: true, label: 'Direct' });
    const reply = await receive(randomUUID(), link.shlink);
    expect(reply.imported).toEqual([expect.objectContaining({ kind: 'fhir-bundle', name: expect.stringMatching(/^SMART Health Link from Direct, received /) })]);
    expect(uploads[0]!.json).toEqual(bundle('Direct file condition'));
    expect(link.requests).toEqual([{ recipient: 'Medfolio (on behalf of the patient)' }]);
  });

  it("SMART Health Cards: verified against the issuer's JWKS when it is served, not verified when it cannot be reached or the key is not the issuer's", async () => {
    const clinic = await sender.issuer('springfield-clinic');
    const offline = await sender.issuer('offline-clinic', { served: false });
    const impostor = await sender.issuer('impostor', { served: false });
    const signed = await clinic.issue(immunization());
    const unreachable = await offline.issue(immunization());
    // A card that names the clinic as issuer but is signed with another key: its JWKS is reachable, the signature does not verify.
    const forged = (await impostor.issue(immunization())).split('.');
    const forgedPayload = JSON.parse((await import('node:zlib')).inflateRawSync(Buffer.from(forged[1]!, 'base64url')).toString()) as Record<string, unknown>;
    forgedPayload['iss'] = clinic.iss;
    forged[1] = (await import('node:zlib')).deflateRawSync(Buffer.from(JSON.stringify(forgedPayload))).toString('base64url');
    const link = await sender.link({ files: [{ card: signed }, { card: unreachable }, { card: forged.join('.') }], label: 'Vaccines' });

    const reply = await receive(randomUUID(), link.shlink);
    expect(reply.imported.map(({ kind, verified_issuer, issuer }) => ({ kind, verified_issuer, issuer }))).toEqual([
      { kind: 'health-card', verified_issuer: clinic.iss, issuer: clinic.iss },
      { kind: 'health-card', verified_issuer: null, issuer: offline.iss },
      { kind: 'health-card', verified_issuer: null, issuer: clinic.iss },
    ]);
    expect(reply.imported[0]!.name).toMatch(/^SMART Health Card from Vaccines, received /);
    expect(uploads.map((u) => u.json)).toEqual([immunization(), immunization(), immunization()]);
  });

  it("a link made with the product's own SHL code (as the summary service shares summaries): passcode, location file, imported", async () => {
    const key = newShlKey();
    const jwe = await encryptShlFile(JSON.stringify(bundle('Shared by another Medfolio user')), key);
    const fileUrl = sender.serve(`/product/${randomUUID()}/file`, { status: 200, contentType: 'application/jose', body: jwe });
    let asked: Record<string, unknown> | undefined;
    const manifestServer = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        asked = JSON.parse(body) as Record<string, unknown>;
        if (asked['passcode'] !== '4321') return void res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ remainingAttempts: 4 }));
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ status: 'can-change', files: [{ contentType: 'application/fhir+json', location: fileUrl }] }));
      });
    });
    await new Promise<void>((resolve) => manifestServer.listen(0, '127.0.0.1', resolve));
    try {
      const shlink = encodeShlink({ url: `http://127.0.0.1:${(manifestServer.address() as AddressInfo).port}/api/summary/shl/?user=abc&tag=def`, key, flag: 'P', label: 'My summary', exp: Math.floor(Date.now() / 1000) + 3600 });
      expect(await failure(receive(randomUUID(), shlink, '0000'))).toMatchObject({ message: 'Wrong passcode. 4 attempts left.' });
      const reply = await receive(randomUUID(), shlink, '4321');
      expect(reply.label).toBe('My summary');
      expect(uploads.at(-1)!.json).toEqual(bundle('Shared by another Medfolio user'));
      expect(asked).toEqual({ recipient: 'Medfolio (on behalf of the patient)', passcode: '4321' });
    } finally {
      manifestServer.closeAllConnections();
      await new Promise((resolve) => manifestServer.close(resolve));
    }
  });

  it('all or nothing: when the documents refuse the second file (plan full), the first is deleted and the reason said', async () => {
    const link = await sender.link({ files: [{ fhir: bundle('a') }, { fhir: bundle('b') }] });
    refuseUploadsAfter = 1;
    const refused = await failure(receive(randomUUID(), link.shlink));
    expect(refused).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect(uploads).toHaveLength(1);
    expect(deleted).toContain(uploads[0]!.id);
    expect(audits().filter((a) => a.action === 'connections.shl.receive' && a.entityId === uploads[0]?.id)).toHaveLength(0);
  });

  it('the address rules for a link (user input): https only, loopback only when allowed, never a private address, no redirects, size caps', async () => {
    const strict = new ShlFetchRepository(Object.assign(new ConnectionsConfig(), { allowLoopbackHttp: false, httpTimeoutMs: 2000 }));
    const refused = async (url: string) => {
      const error = await strict.get(url, 1000).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ShlFetchError);
      return (error as ShlFetchError).reason;
    };
    expect(await refused(`${sender.baseUrl}/x`)).toBe('refused-address'); // http to loopback, not allowed here
    expect(await refused('https://127.0.0.1:1/x')).toBe('refused-address');
    expect(await refused('https://10.1.2.3/x')).toBe('refused-address');
    expect(await refused('https://[::1]/x')).toBe('refused-address');
    expect(await refused('https://169.254.169.254/latest/meta-data')).toBe('refused-address');
    expect(await refused('https://localhost:1/x')).toBe('refused-address'); // a name that resolves to loopback, refused as the socket connects
    expect(await refused('ftp://example.com/x')).toBe('refused-address');
    expect(await refused('https://user:pw@example.com/x')).toBe('refused-address');
    // Through the service: a link to a private address is refused with a plain message.
    const privateLink = encodeShlink({ url: 'https://192.168.1.10/manifest', key: newShlKey() });
    expect(await failure(receive(randomUUID(), privateLink))).toMatchObject({ code: 'VALIDATION_FAILED', message: SHL_RECEIVE_MESSAGES.refusedAddress });

    const loose = new ShlFetchRepository(config);
    const redirect = sender.serve(`/redirect/${randomUUID()}`, { status: 302, contentType: 'text/plain', body: '' });
    expect((await loose.get(redirect, 1000)).status).toBe(302); // answered as it is, never followed
    const big = sender.serve(`/big/${randomUUID()}`, { status: 200, contentType: 'application/json', body: 'x'.repeat(5000) });
    expect((await loose.get(big, 1000).catch((e: unknown) => e)) as ShlFetchError).toMatchObject({ reason: 'too-large' });
  });
});
