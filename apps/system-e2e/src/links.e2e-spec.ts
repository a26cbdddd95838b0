import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Bundle, Composition, Patient } from '@medplum/fhirtypes';
import { FHIRBundleProcessor, SHLInvalidPasscodeError, SHLViewer, type SHLResolvedContent } from 'kill-the-clipboard';
import type { DevMailEntry, ReferralView, RequestAccessReply, ShareLinkItem, SummaryItem, TokenPair } from '@medfolio/contracts';
import { FakeNppes, readPkpass } from '@medfolio/testing';
import { call, codeFor, type Mailbox } from './support/journey';
import { DEV_MAIL_JSON, freePort, startNode, waitFor, type Running } from './support/processes';

/**
 * Every link the product writes points where it runs. `npm start` on a port that is not
 * the default, without PUBLIC_BASE_URL: each e-mail's links (identity, notifications, billing,
 * documents), the referral link, share links, the SHL payload's manifest URL and its file locations,
 * and the wallet pass's web service all start with http://localhost:<that port>, and each is
 * followed and answers. An SHL receiver this project did not write (the `kill-the-clipboard`
 * package's SHLViewer, with the real fetch: no URL rewritten) resolves every kind of SMART Health
 * Link the product makes. Restarted with PUBLIC_BASE_URL, every link starts with that instead.
 */
describe('links point where the product runs', () => {
  let dataDir: string;
  let running: Running | undefined;
  let port: number;
  let base: string;
  let nppes: FakeNppes | undefined;
  let env: Record<string, string>;

  const mail = async (): Promise<DevMailEntry[]> => (await call<DevMailEntry[]>(base, 'GET', DEV_MAIL_JSON)).body;
  const mailbox: Mailbox = {
    textsTo: async (to) => (await mail()).filter((m) => m.to.toLowerCase() === to.toLowerCase()).map((m) => `${m.subject}\n\n${m.text}`),
  };
  const withLog = (error: Error): never => {
    throw new Error(`${error.message}\n--- product log (tail) ---\n${running?.output().slice(-4000) ?? ''}`);
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'medfolio-links-'));
    nppes = await FakeNppes.start();
    do port = await freePort();
    while (port === 3000);
    // PORT as an operator sets it (not 0): the links must follow it. PUBLIC_BASE_URL empty is unset.
    env = { PORT: String(port), PUBLIC_BASE_URL: '', DATA_DIR: dataDir, REFRESH_REUSE_GRACE_SECONDS: '0', NPI_REGISTRY_URL: nppes.url };
    running = startNode('apps/medfolio/src/main.js', [], env);
    const started = await waitFor('the start-up line', async () => /running at (http:\/\/localhost:\d+)\//.exec(running!.output())?.[1], 150_000).catch(withLog);
    base = `http://localhost:${port}`;
    expect(started).toBe(base);
  }, 180_000);

  afterAll(async () => {
    await running?.stop();
    await nppes?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** A new verified account, signed in. */
  const signUp = async (name: string): Promise<{ email: string; password: string; token: string; refresh: string; id: string }> => {
    const email = `${name.split(' ')[0]!.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
    const password = 'correct horse battery';
    const registered = await call(base, 'POST', '/api/register/', { first_name: name, phone: '+1 202 555 0143', email, password, date_of_birth: '1980-04-04' });
    expect(registered.status).toBe(201);
    expect((await call(base, 'POST', '/api/verify-otp/', { email, otp: await codeFor(mailbox, email) })).status).toBe(200);
    const login = await call<TokenPair>(base, 'POST', '/api/login/', { email, password });
    expect(login.status).toBe(200);
    const me = await call<{ id: string }>(base, 'GET', '/api/profile/', undefined, login.body.access);
    return { email, password, token: login.body.access, refresh: login.body.refresh, id: me.body.id };
  };

  /** A confirmed summary (a fact the patient typed, then confirmed), so links have something to share. */
  const confirmSummary = async (token: string): Promise<void> => {
    const added = await call<SummaryItem>(base, 'POST', '/api/summary/facts/', { section: 'allergies', text: 'Penicillin (hives)' }, token);
    expect(added.status).toBe(200);
    expect((await call(base, 'POST', '/api/summary/confirm/', { version: added.body.version }, token)).status).toBe(200);
  };

  /** The e-mail to `to` whose subject matches, once it has come. */
  const mailTo = (to: string, subject: RegExp): Promise<DevMailEntry> =>
    waitFor(`an e-mail to ${to} matching ${subject}`, async () => (await mail()).find((m) => m.to.toLowerCase() === to.toLowerCase() && subject.test(m.subject)), 30_000);

  /** Every link in an e-mail: the text part's URLs and the HTML part's hrefs. */
  const linksIn = (entry: DevMailEntry): string[] => {
    const inText = entry.text.match(/https?:\/\/[^\s<>"')]+/g) ?? [];
    const inHtml = [...entry.html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    return [...new Set([...inText, ...inHtml])].filter((url) => !url.startsWith('mailto:'));
  };

  /** A page link: on this run's origin, and the web app answers it (a page, not the API's 404). */
  const opensPage = async (url: string, what: string): Promise<void> => {
    expect({ what, url, origin: new URL(url).origin }).toEqual({ what, url, origin: base });
    const page = await fetch(url, { headers: { accept: 'text/html' } });
    expect({ what, url, status: page.status, type: page.headers.get('content-type') }).toEqual({ what, url, status: 200, type: 'text/html; charset=utf-8' });
  };

  it('writes every e-mail, referral and share link with the port it was started on, and each opens', async () => {
    const ada = await signUp('Ada');
    await confirmSummary(ada.token);

    // The welcome e-mail (notifications' own link back to the product).
    const welcome = await mailTo(ada.email, /welcome/i);
    expect(linksIn(welcome).length).toBeGreaterThan(0);
    for (const url of linksIn(welcome)) await opensPage(url, 'the welcome e-mail');

    // The referral link (billing): on the page and in the invitation e-mail.
    const referral = await call<ReferralView>(base, 'GET', '/api/referral/', undefined, ada.token);
    expect(referral.status).toBe(200);
    expect(referral.body.link).toBe(`${base}/sign-up?ref=${referral.body.code}`);
    await opensPage(referral.body.link, 'the referral link');
    const friend = `friend-${randomUUID().slice(0, 8)}@example.com`;
    expect((await call(base, 'POST', '/api/referral/invite/', { email: friend }, ada.token)).status).toBe(200);
    const invite = await mailTo(friend, /.*/);
    expect(linksIn(invite)).toContain(referral.body.link);
    for (const url of linksIn(invite)) await opensPage(url, 'the referral invitation');

    // A share link with e-mail on view (summary): its URL and QR; a view sends "your summary was viewed".
    const made = await call<ShareLinkItem>(base, 'POST', '/api/share-links/', { label: 'For Dr Lee', notify_on_view: true, shl: true }, ada.token);
    expect(made.status).toBe(201);
    expect(made.body.url).toBe(`${base}/summary/${made.body.share_id}`);
    expect(made.body.qr_text.startsWith(`${made.body.url}#shlink:/`)).toBe(true);
    await opensPage(made.body.url, 'the share link');
    expect(new SHLViewer({ shlinkURI: made.body.shl! }).shl.url.startsWith(`${base}/api/summary/shl/?`)).toBe(true);
    expect((await call(base, 'GET', `/api/summary/?user=${encodeURIComponent(made.body.share_id)}`)).status).toBe(200);
    const viewed = await mailTo(ada.email, /viewed/i);
    expect(linksIn(viewed).length).toBeGreaterThan(0);
    for (const url of linksIn(viewed)) await opensPage(url, 'the "summary was viewed" e-mail');

    // Identity's mails: a sign-up with a taken address, and a password reset.
    expect((await call(base, 'POST', '/api/register/', { first_name: 'Ada', phone: '+1 202 555 0143', email: ada.email, password: 'another pass 1234', date_of_birth: '1980-04-04' })).status).toBe(201);
    const attempt = await waitFor('the sign-up attempt e-mail', async () => (await mail()).find((m) => m.to === ada.email && linksIn(m).some((u) => u.endsWith('/forgot-password'))), 30_000);
    expect(linksIn(attempt)).toEqual(expect.arrayContaining([`${base}/login`, `${base}/forgot-password`]));
    for (const url of linksIn(attempt)) await opensPage(url, 'the sign-up attempt e-mail');
    expect((await call(base, 'POST', '/api/forgot-password/', { email: ada.email })).status).toBe(200);
    const reset = await waitFor('the reset e-mail', async () => (await mail()).find((m) => m.to === ada.email && linksIn(m).some((u) => u.includes('/reset-password/'))), 30_000);
    for (const url of linksIn(reset)) await opensPage(url, 'the reset e-mail');

    // Documents' mail: a doctor (the registry stand-in's Dr Ana Ruiz, self-attested) asks to see Ada's documents.
    const doctor = await signUp('Ana Ruiz');
    const license = await call(base, 'POST', '/api/medical-license/', { license_number: '1234567893' }, doctor.token);
    expect(license.status).toBe(200);
    const asProvider = await call<TokenPair>(base, 'POST', '/api/token/refresh/', { refresh: doctor.refresh });
    expect(asProvider.status).toBe(200);
    const asked = await call<RequestAccessReply>(base, 'POST', '/api/providers/access-requests/', { share_id: made.body.share_id }, asProvider.body.access);
    expect(asked.status).toBe(200);
    const request = await mailTo(ada.email, /asks to see your documents/);
    expect(linksIn(request)).toContain(`${base}/providers/access`);
    for (const url of linksIn(request)) await opensPage(url, 'the provider access request e-mail');

    // No e-mail of this run names another origin (the default :3000 above all).
    const everyLink = (await mail()).flatMap(linksIn);
    expect(everyLink.filter((url) => new URL(url).origin !== base)).toEqual([]);
  });

  it("writes the wallet pass's web service and QR with the same base, and Wallet's calls reach it", async () => {
    const wren = await signUp('Wren');
    await confirmSummary(wren.token);
    const link = await call<{ url: string }>(base, 'GET', '/api/get-pass-url/', undefined, wren.token);
    expect(link.status).toBe(200);
    const download = await fetch(new URL(link.body.url, base));
    expect(download.status).toBe(200);
    const files = await readPkpass(Buffer.from(await download.arrayBuffer()));
    const pass = JSON.parse(files.get('pass.json')!.toString('utf8')) as { webServiceURL: string; authenticationToken: string; passTypeIdentifier: string; serialNumber: string; barcodes: { message: string }[] };
    // http here (a local run); production needs PUBLIC_BASE_URL (or WALLET_WEB_SERVICE_URL) with https.
    expect(pass.webServiceURL).toBe(`${base}/api/passkit/`);
    expect(new URL(pass.barcodes[0]!.message).origin).toBe(base);
    await opensPage(pass.barcodes[0]!.message.split('#')[0]!, "the pass's QR");
    // Wallet appends v1/passes/<type>/<serial> to webServiceURL and asks for the latest pass.
    const latest = await fetch(`${pass.webServiceURL}v1/passes/${pass.passTypeIdentifier}/${pass.serialNumber}`, { headers: { authorization: `ApplePass ${pass.authenticationToken}` } });
    expect(latest.status).toBe(200);
    expect(latest.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
  });

  describe('an SHL receiver this project did not write (kill-the-clipboard) resolves every kind of link', () => {
    let owner: { token: string; id: string };
    const recipient = 'Dr Lee, Example Clinic';

    beforeAll(async () => {
      owner = await signUp('Lee');
      await confirmSummary(owner.token);
    });

    const makeLink = async (settings: Record<string, unknown>): Promise<ShareLinkItem> => {
      const made = await call<ShareLinkItem>(base, 'POST', '/api/share-links/', { label: 'For Dr Lee', shl: true, ...settings }, owner.token);
      expect(made.status).toBe(201);
      expect(made.body.shl).toMatch(/^shlink:\//);
      return made.body;
    };

    /** The IPS Bundle the viewer decrypted: a document Bundle kill-the-clipboard accepts, Composition first, the Patient in it. */
    const checkBundle = (resolved: SHLResolvedContent): void => {
      expect(resolved.smartHealthCards).toEqual([]);
      expect(resolved.fhirResources).toHaveLength(1);
      const bundle = resolved.fhirResources[0] as unknown as Bundle;
      expect(new FHIRBundleProcessor().validate(bundle as never)).toBe(true);
      expect(bundle.type).toBe('document');
      const composition = bundle.entry?.[0]?.resource as Composition | undefined;
      expect(composition?.resourceType).toBe('Composition');
      expect(JSON.stringify(bundle)).toContain('Penicillin');
      const patient = bundle.entry?.find((e) => e.resource?.resourceType === 'Patient')?.resource as Patient | undefined;
      expect(patient).toBeDefined();
      expect(composition?.subject?.reference).toBe(bundle.entry?.find((e) => e.resource === patient)?.fullUrl);
    };

    /** Resolves the QR's text as a phone camera hands it over (page URL, '#', shlink), embedded and then as a location file. */
    const resolveBoth = async (link: ShareLinkItem, passcode?: string): Promise<void> => {
      const viewer = new SHLViewer({ shlinkURI: link.qr_text });
      expect(viewer.shl.url.startsWith(`${base}/api/summary/shl/?`)).toBe(true);

      const embedded = await viewer.resolveSHL({ recipient, ...(passcode ? { passcode } : {}) });
      expect(embedded.manifest?.files).toHaveLength(1);
      expect(embedded.manifest!.files[0]).toHaveProperty('embedded');
      checkBundle(embedded);

      const located = await viewer.resolveSHL({ recipient, embeddedLengthMax: 100, ...(passcode ? { passcode } : {}) });
      const file = located.manifest!.files[0] as { location?: string };
      expect(file.location?.startsWith(`${base}/api/summary/shl/file/?`)).toBe(true);
      checkBundle(located);
    };

    it('a long-term link (flag L)', async () => {
      const link = await makeLink({});
      const viewer = new SHLViewer({ shlinkURI: link.qr_text });
      expect({ flag: viewer.shl.flag, exp: viewer.shl.exp, label: viewer.shl.label }).toEqual({ flag: 'L', exp: undefined, label: 'For Dr Lee' });
      await resolveBoth(link);
    });

    it('an expiring link (exp, no L)', async () => {
      const expires = new Date(Date.now() + 24 * 3600 * 1000);
      const link = await makeLink({ expires_at: expires.toISOString() });
      const viewer = new SHLViewer({ shlinkURI: link.qr_text });
      expect(viewer.shl.flag ?? '').toBe('');
      expect(viewer.shl.exp).toBe(Math.floor(expires.getTime() / 1000));
      await resolveBoth(link);
    });

    it('a passcode link (flag P): refused without or with a wrong passcode, resolved with the right one', async () => {
      const link = await makeLink({ passcode: 'blue-heron' });
      const viewer = new SHLViewer({ shlinkURI: link.qr_text });
      expect(viewer.shl.requiresPasscode).toBe(true);
      expect(viewer.shl.flag).toBe('LP');
      await expect(viewer.resolveSHL({ recipient })).rejects.toBeInstanceOf(SHLInvalidPasscodeError);
      await expect(viewer.resolveSHL({ recipient, passcode: 'not-the-passcode' })).rejects.toBeInstanceOf(SHLInvalidPasscodeError);
      await resolveBoth(link, 'blue-heron');
    });

    it('an expiring passcode link, read from the bare shlink:/ too; a revoked link resolves no more', async () => {
      const link = await makeLink({ passcode: 'blue-heron', expires_at: new Date(Date.now() + 3600 * 1000).toISOString() });
      const viewer = new SHLViewer({ shlinkURI: link.shl! });
      expect(viewer.shl.flag).toBe('P');
      checkBundle(await viewer.resolveSHL({ recipient, passcode: 'blue-heron' }));
      expect((await call(base, 'POST', `/api/share-links/${link.id}/revoke/`, undefined, owner.token)).status).toBe(200);
      await expect(viewer.resolveSHL({ recipient, passcode: 'blue-heron' })).rejects.toThrow(/not found/i);
    });
  });

  it('writes them all with PUBLIC_BASE_URL instead when it is set (a proxy, an ingress, https)', async () => {
    const publicBase = 'https://medfolio.example.test';
    await running!.stop();
    running = startNode('apps/medfolio/src/main.js', [], { ...env, PUBLIC_BASE_URL: `${publicBase}/` });
    await waitFor('the start-up line', async () => (running!.output().includes(`Links in e-mails and shared links start with ${publicBase}\n`) ? true : undefined), 150_000).catch(withLog);
    const publicLink = (url: string) => expect({ url, origin: new URL(url).origin }).toEqual({ url, origin: publicBase });

    const bea = await signUp('Bea');
    await confirmSummary(bea.token);
    const welcome = await mailTo(bea.email, /welcome/i);
    expect(linksIn(welcome).length).toBeGreaterThan(0);
    linksIn(welcome).forEach(publicLink);
    publicLink((await call<ReferralView>(base, 'GET', '/api/referral/', undefined, bea.token)).body.link);

    const made = await call<ShareLinkItem>(base, 'POST', '/api/share-links/', { label: 'For Dr Lee', shl: true }, bea.token);
    expect(made.body.url).toBe(`${publicBase}/summary/${made.body.share_id}`);
    const manifestUrl = new URL(new SHLViewer({ shlinkURI: made.body.qr_text }).shl.url);
    expect(manifestUrl.origin).toBe(publicBase);
    // The manifest, asked of this run directly: its file location has the public base too.
    const manifest = await fetch(`${base}${manifestUrl.pathname}${manifestUrl.search}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ recipient: 'Dr Lee', embeddedLengthMax: 100 }) });
    expect(manifest.status).toBe(200);
    publicLink(((await manifest.json()) as { files: { location: string }[] }).files[0]!.location);

    const pass = await fetch(new URL((await call<{ url: string }>(base, 'GET', '/api/get-pass-url/', undefined, bea.token)).body.url, base));
    const passJson = JSON.parse((await readPkpass(Buffer.from(await pass.arrayBuffer()))).get('pass.json')!.toString('utf8')) as { webServiceURL: string };
    expect(passJson.webServiceURL).toBe(`${publicBase}/api/passkit/`);
  }, 240_000);
});
