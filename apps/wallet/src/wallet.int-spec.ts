import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { decodeJwt, jwtVerify } from 'jose';
import { PKPASS_CONTENT_TYPE, SUBJECTS, WALLET_SUBJECTS, type PassKitPassReply } from '@medfolio/contracts';
import { manifestProblems, opensslVerifyPkpass, pngSize, readPkpass, refusal } from '@medfolio/testing';
import { makeDevelopmentChain } from './repositories/signing-material.repository';
import { ApnsStandIn } from './testing/apns-stand-in';
import { WalletHarness } from './testing/wallet-harness';

/**
 * The wallet service on real PostgreSQL, NATS JetStream, HTTP and OpenSSL: a signed pass that
 * verifies against the (development) WWDR certificate, cached per link version; Apple's web
 * service with good and wrong tokens and serials; a revoked link → the pass retired: listed as
 * updated, the devices pushed through a local APNs (HTTP/2), then 401 to its token and no new link
 * for it; the patient issues a new pass; Google's JWT.
 */
jest.setTimeout(90_000);

const h = new WalletHarness();
const apns = new ApnsStandIn();
const google = generateKeyPairSync('rsa', { modulusLength: 2048 });

beforeAll(async () => {
  const apnsHost = await apns.start();
  await h.start({
    APNS_KEY_ID: apns.keyId,
    APNS_TEAM_ID: apns.teamId,
    APNS_KEY: apns.privateKeyPem,
    APNS_HOST: apnsHost,
    APNS_CA: apns.caPem,
    GOOGLE_WALLET_ISSUER_ID: '3388000000012345678',
    GOOGLE_WALLET_SERVICE_ACCOUNT: JSON.stringify({ client_email: 'wallet@medfolio-test.iam.gserviceaccount.com', private_key: google.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }),
  });
}, 60_000);
afterAll(async () => {
  await h.stop();
  await apns.stop();
});

async function passOf(userId: string) {
  const { url } = await h.rpc.send(WALLET_SUBJECTS.passUrl, {}, h.owner(userId));
  const response = await h.download(url);
  expect(response.status).toBe(200);
  return { url, response, files: await readPkpass(Buffer.from(await response.arrayBuffer())) };
}

const passJson = (files: Map<string, Buffer>) => JSON.parse(files.get('pass.json')!.toString('utf8')) as Record<string, unknown> & { barcodes: Array<{ message: string; format: string }>; serialNumber: string; authenticationToken: string };

it('answers health over request/reply', async () => {
  await expect(h.rpc.send(SUBJECTS.health('wallet'), {}, h.device())).resolves.toMatchObject({ status: 'ok' });
});

it('serves a signed pass: manifest SHA-1s, a PKCS#7 signature OpenSSL verifies, pass.json fields, images at 1x/2x/3x, the seed name', async () => {
  const userId = randomUUID();
  const { url, response, files } = await passOf(userId);
  expect(url).toMatch(/^\/api\/files\/wallet-passes\/[0-9a-f-]{36}\/[0-9a-f]{32}\.pkpass\?/);
  expect(response.headers.get('content-type')).toBe(PKPASS_CONTENT_TYPE);
  expect(response.headers.get('content-disposition')).toContain(`medfolio_${userId}.pkpass`);

  expect([...files.keys()].sort()).toEqual(['icon.png', 'icon@2x.png', 'icon@3x.png', 'logo.png', 'logo@2x.png', 'logo@3x.png', 'manifest.json', 'pass.json', 'signature']);
  expect(manifestProblems(files)).toEqual([]);
  await expect(opensslVerifyPkpass(files, await h.developmentCa())).resolves.toContain('Verification successful');
  // Another CA does not verify it: the check can fail.
  const otherCa = makeDevelopmentChain('pass.other', 'OTHER', 'Other').wwdr;
  await expect(opensslVerifyPkpass(files, otherCa)).rejects.toThrow();
  expect([1, 2, 3].map((s) => pngSize(files.get(s === 1 ? 'icon.png' : `icon@${s}x.png`)!))).toEqual([29, 58, 87].map((n) => ({ width: n, height: n })));
  expect([1, 2, 3].map((s) => pngSize(files.get(s === 1 ? 'logo.png' : `logo@${s}x.png`)!))).toEqual([1, 2, 3].map((s) => ({ width: 160 * s, height: 50 * s })));

  const pass = passJson(files);
  const link = h.sharing.links.get(userId)!;
  expect(pass).toMatchObject({
    formatVersion: 1,
    passTypeIdentifier: h.config.passTypeIdentifier,
    teamIdentifier: h.config.teamIdentifier,
    organizationName: 'Medfolio',
    webServiceURL: 'https://medfolio.test/api/passkit/',
    sharingProhibited: true,
  });
  expect(pass.barcodes[0]).toMatchObject({ format: 'PKBarcodeFormatQR', message: link.url });
  expect(pass.authenticationToken.length).toBeGreaterThanOrEqual(16);
  const generic = pass['generic'] as { backFields: Array<{ label: string; value: string }>; primaryFields: Array<{ value: string }> };
  expect(generic.backFields.find((f) => f.label === 'How to revoke')?.value).toContain('revoke');
  // The name is off by default.
  expect(JSON.stringify(pass)).not.toContain('CARD HOLDER');
  expect(h.audit.some((r) => r.action === 'wallet.pass.download' && r.patientId === userId)).toBe(true);
});

it('signs once per link version: the same pass again is served from the cache; the name setting signs a new one', async () => {
  const userId = randomUUID();
  h.firstNames.set(userId, 'Ada Lovelace');
  const first = await passOf(userId);
  const key = (url: string) => url.split('?')[0];
  const ensured = h.sharing.calls;
  const again = await h.rpc.send(WALLET_SUBJECTS.passUrl, {}, h.owner(userId));
  expect(key(again.url)).toBe(key(first.url));
  // The link is kept and followed through its events: not asked for again while it is active.
  expect(h.sharing.calls).toBe(ensured);
  const [before] = await h.sql<{ update_tag: string }>(`SELECT update_tag::text FROM wallet.passes WHERE owner_id = $1`, [userId]);

  const view = await h.rpc.send(WALLET_SUBJECTS.updateSettings, { show_name: true }, h.owner(userId));
  expect(view.holder_name).toBe('Ada');
  const named = await passOf(userId);
  expect(key(named.url)).not.toBe(key(first.url));
  expect(passJson(named.files)['generic']).toMatchObject({ primaryFields: [{ label: 'CARD HOLDER', value: 'Ada' }] });
  const [after] = await h.sql<{ update_tag: string }>(`SELECT update_tag::text FROM wallet.passes WHERE owner_id = $1`, [userId]);
  expect(BigInt(after!.update_tag)).toBeGreaterThan(BigInt(before!.update_tag));
  // The old signed pass is gone from storage; the new one is there.
  expect((await h.download(first.url)).status).toBe(404);
  await expect(h.rpc.send(WALLET_SUBJECTS.updateSettings, { show_name: 'yes' as unknown as boolean }, h.owner(userId))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: 'show_name must be true or false.' });
});

describe('the PassKit web service', () => {
  const userId = randomUUID();
  const device = 'device-lib-0001';
  let serial = '';
  let token = '';
  const ptid = () => h.config.passTypeIdentifier;

  beforeAll(async () => {
    const pass = passJson((await passOf(userId)).files);
    serial = pass.serialNumber;
    token = pass.authenticationToken;
  });

  const send = <S extends Parameters<typeof h.rpc.send>[0]>(subject: S, payload: Parameters<typeof h.rpc.send<S>>[1]) => h.rpc.send(subject, payload, h.device());

  it('registers a device (201, then 200), refuses a wrong token (401) and an unknown serial (404)', async () => {
    const registration = { device_library_identifier: device, pass_type_identifier: ptid(), serial_number: serial, authentication_token: token, push_token: 'push-token-1' };
    await expect(send(WALLET_SUBJECTS.passkitRegister, registration)).resolves.toEqual({ status: 201 });
    await expect(send(WALLET_SUBJECTS.passkitRegister, registration)).resolves.toEqual({ status: 200 });
    await expect(send(WALLET_SUBJECTS.passkitRegister, { ...registration, authentication_token: 'x'.repeat(32) })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(send(WALLET_SUBJECTS.passkitRegister, { ...registration, authentication_token: '' })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(send(WALLET_SUBJECTS.passkitRegister, { ...registration, serial_number: randomUUID() })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(send(WALLET_SUBJECTS.passkitRegister, { ...registration, pass_type_identifier: 'pass.someone.else' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('gets the latest pass with Last-Modified, answers not-modified to If-Modified-Since, refuses wrong tokens and serials', async () => {
    const request = { pass_type_identifier: ptid(), serial_number: serial, authentication_token: token };
    const latest = (await send(WALLET_SUBJECTS.passkitPass, request)) as Extract<PassKitPassReply, { not_modified: false }>;
    expect(latest.not_modified).toBe(false);
    expect(passJson(await readPkpass(Buffer.from(await (await h.download(latest.url)).arrayBuffer()))).serialNumber).toBe(serial);
    await expect(send(WALLET_SUBJECTS.passkitPass, { ...request, if_modified_since: latest.last_modified })).resolves.toEqual({ not_modified: true, last_modified: latest.last_modified });
    await expect(send(WALLET_SUBJECTS.passkitPass, { ...request, if_modified_since: new Date(Date.parse(latest.last_modified) - 1000).toUTCString() })).resolves.toMatchObject({ not_modified: false });
    await expect(send(WALLET_SUBJECTS.passkitPass, { ...request, authentication_token: token.slice(1) + 'A' })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(send(WALLET_SUBJECTS.passkitPass, { ...request, serial_number: randomUUID() })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a change never leaves the Last-Modified a device holds (the same second, or a clock ahead): never 304 after a change', async () => {
    const request = { pass_type_identifier: ptid(), serial_number: serial, authentication_token: token };
    // The device's copy is stamped later than the database's clock will read at the change: a change
    // within the same second as the fetch, or a clock that stepped back, both look like this.
    await h.sql(`UPDATE wallet.passes SET updated_at = date_trunc('second', now()) + interval '5 seconds' WHERE serial_number = $1`, [serial]);
    const fetched = await send(WALLET_SUBJECTS.passkitPass, request);
    const [row] = await h.sql<{ show_name: boolean }>(`SELECT show_name FROM wallet.passes WHERE serial_number = $1`, [serial]);
    await h.rpc.send(WALLET_SUBJECTS.updateSettings, { show_name: !row!.show_name }, h.owner(userId));
    const next = await send(WALLET_SUBJECTS.passkitPass, { ...request, if_modified_since: fetched.last_modified });
    expect(next.not_modified).toBe(false);
    expect(Date.parse(next.last_modified)).toBeGreaterThan(Date.parse(fetched.last_modified));
    await h.rpc.send(WALLET_SUBJECTS.updateSettings, { show_name: row!.show_name }, h.owner(userId));
  });

  it('lists the serials updated since a tag (none: null, HTTP 204) and takes logs', async () => {
    const all = await send(WALLET_SUBJECTS.passkitUpdated, { device_library_identifier: device, pass_type_identifier: ptid() });
    expect(all).toEqual({ serialNumbers: [serial], lastUpdated: expect.stringMatching(/^\d+$/) });
    await expect(send(WALLET_SUBJECTS.passkitUpdated, { device_library_identifier: device, pass_type_identifier: ptid(), passes_updated_since: all!.lastUpdated })).resolves.toBeNull();
    await expect(send(WALLET_SUBJECTS.passkitUpdated, { device_library_identifier: 'another-device', pass_type_identifier: ptid() })).resolves.toBeNull();
    await expect(send(WALLET_SUBJECTS.passkitUpdated, { device_library_identifier: device, pass_type_identifier: ptid(), passes_updated_since: 'not-a-tag' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(send(WALLET_SUBJECTS.passkitLog, { logs: ['[2026-01-01] Web service error for pass.dev: 401'] })).resolves.toEqual({});
  });

  it('drops a device APNs says is gone (410), and unregisters with the token', async () => {
    const registration = { device_library_identifier: 'device-gone', pass_type_identifier: ptid(), serial_number: serial, authentication_token: token, push_token: 'push-token-gone' };
    await send(WALLET_SUBJECTS.passkitRegister, registration);
    apns.gone.add('push-token-gone');
    await h.rpc.send(WALLET_SUBJECTS.updateSettings, { show_name: true }, h.owner(userId));
    await h.eventually('the gone device dropped', async () => ((await h.sql(`SELECT 1 FROM wallet.registrations WHERE device_library_identifier = 'device-gone'`)).length === 0 ? true : undefined));

    const own = { device_library_identifier: device, pass_type_identifier: ptid(), serial_number: serial, authentication_token: token };
    await expect(send(WALLET_SUBJECTS.passkitUnregister, { ...own, authentication_token: 'wrong-token-wrong-token' })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(send(WALLET_SUBJECTS.passkitUnregister, { ...own, serial_number: randomUUID() })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(send(WALLET_SUBJECTS.passkitUnregister, own)).resolves.toEqual({});
    await expect(send(WALLET_SUBJECTS.passkitUpdated, { device_library_identifier: device, pass_type_identifier: ptid() })).resolves.toBeNull();
  });
  it('revoking the link retires the pass: listed as updated and pushed, then 401 to its token everywhere, no link made for it; the patient issues a new pass', async () => {
    const registration = { device_library_identifier: device, pass_type_identifier: ptid(), serial_number: serial, authentication_token: token, push_token: 'push-token-1' };
    await send(WALLET_SUBJECTS.passkitRegister, registration);
    const since = (await send(WALLET_SUBJECTS.passkitUpdated, { device_library_identifier: device, pass_type_identifier: ptid() }))!.lastUpdated;
    const oldUrl = h.sharing.links.get(userId)!.url;
    const request = { pass_type_identifier: ptid(), serial_number: serial, authentication_token: token };
    // The device's copy, fetched moments before the revocation (usually within the same second).
    const before = (await send(WALLET_SUBJECTS.passkitPass, request)) as Extract<PassKitPassReply, { not_modified: false }>;
    expect(before.not_modified).toBe(false);
    await expect(h.rpc.send(WALLET_SUBJECTS.passStatus, {}, h.owner(userId))).resolves.toEqual({ state: 'active', retired_at: null });
    apns.pushes.length = 0;
    await h.sharing.revoke(userId);

    // Devices are told (they ask, get 401 and stop asking).
    const updated = await h.eventually('the pass listed as updated', async () =>
      (await send(WALLET_SUBJECTS.passkitUpdated, { device_library_identifier: device, pass_type_identifier: ptid(), passes_updated_since: since })) ?? undefined,
    );
    expect(updated.serialNumbers).toEqual([serial]);
    const push = await h.eventually('the APNs push', async () => apns.pushes.find((p) => p.deviceToken === 'push-token-1'));
    expect(push).toEqual({ deviceToken: 'push-token-1', topic: ptid(), body: '{}', problems: [] });

    // The pass's token no longer works for anything: no newly signed pass, so no new link, ever.
    const ensured = h.sharing.calls;
    const retired = { code: 'UNAUTHENTICATED', message: 'This pass was retired. Its holder can issue a new one.' };
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect(await refusal(send(WALLET_SUBJECTS.passkitPass, request))).toMatchObject(retired);
      expect(await refusal(send(WALLET_SUBJECTS.passkitPass, { ...request, if_modified_since: before.last_modified }))).toMatchObject(retired);
    }
    expect(await refusal(send(WALLET_SUBJECTS.passkitRegister, { ...registration, device_library_identifier: 'another-phone' }))).toMatchObject(retired);
    expect(await refusal(send(WALLET_SUBJECTS.passkitUnregister, registration))).toMatchObject(retired);
    expect(h.sharing.calls).toBe(ensured);
    expect(h.sharing.links.get(userId)!.revoked_at).not.toBeNull();
    const status = await h.rpc.send(WALLET_SUBJECTS.passStatus, {}, h.owner(userId));
    expect(status).toEqual({ state: 'retired', retired_at: expect.any(String) });

    // The patient, signed in, issues a new pass: a new serial number, token and link.
    const renewed = passJson((await passOf(userId)).files);
    expect(renewed.serialNumber).not.toBe(serial);
    expect(renewed.authenticationToken).not.toBe(token);
    expect(renewed.barcodes[0]!.message).not.toBe(oldUrl);
    expect(renewed.barcodes[0]!.message).toBe(h.sharing.links.get(userId)!.url);
    await expect(h.rpc.send(WALLET_SUBJECTS.passStatus, {}, h.owner(userId))).resolves.toEqual({ state: 'active', retired_at: null });
    const fresh = { pass_type_identifier: ptid(), serial_number: renewed.serialNumber, authentication_token: renewed.authenticationToken };
    await expect(send(WALLET_SUBJECTS.passkitPass, fresh)).resolves.toMatchObject({ not_modified: false });
    // The old pass's token still answers 401, and cannot reach the new pass either.
    expect(await refusal(send(WALLET_SUBJECTS.passkitPass, request))).toMatchObject(retired);
    expect(await refusal(send(WALLET_SUBJECTS.passkitPass, { ...fresh, authentication_token: token }))).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

it("makes a 'Save to Google Wallet' link: an RS256 JWT with a generic object carrying the same QR link and no health data", async () => {
  const userId = randomUUID();
  await expect(h.rpc.send(WALLET_SUBJECTS.clientConfig, {}, h.device())).resolves.toEqual({ apple_wallet: true, google_wallet: true });
  const { url } = await h.rpc.send(WALLET_SUBJECTS.googleSaveUrl, {}, h.owner(userId));
  const prefix = 'https://pay.google.com/gp/v/save/';
  expect(url.startsWith(prefix)).toBe(true);
  const jwt = url.slice(prefix.length);
  const { payload, protectedHeader } = await jwtVerify(jwt, google.publicKey, { audience: 'google', issuer: 'wallet@medfolio-test.iam.gserviceaccount.com', algorithms: ['RS256'] });
  expect(protectedHeader.alg).toBe('RS256');
  expect(payload).toMatchObject({ typ: 'savetowallet', origins: ['https://medfolio.test'] });
  const body = payload['payload'] as { genericClasses: Array<{ id: string }>; genericObjects: Array<Record<string, unknown>> };
  expect(body.genericClasses).toEqual([{ id: '3388000000012345678.medfolio_health_card' }]);
  const [object] = body.genericObjects;
  expect(Object.keys(object!).sort()).toEqual(['barcode', 'cardTitle', 'classId', 'header', 'hexBackgroundColor', 'id', 'logo', 'state', 'subheader', 'textModulesData']);
  expect(object).toMatchObject({
    id: expect.stringMatching(/^3388000000012345678\.[0-9a-f-]{36}$/),
    classId: '3388000000012345678.medfolio_health_card',
    state: 'ACTIVE',
    cardTitle: { defaultValue: { language: 'en-US', value: 'Medfolio' } },
    header: { defaultValue: { language: 'en-US', value: 'Health card' } },
    barcode: { type: 'QR_CODE', value: h.sharing.links.get(userId)!.url },
    hexBackgroundColor: expect.stringMatching(/^#[0-9a-f]{6}$/),
  });
  expect(decodeJwt(jwt).iat).toEqual(expect.any(Number));
});
