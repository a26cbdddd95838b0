import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ShareLinkItem, SummaryItem } from '@medfolio/contracts';
import { manifestProblems, opensslVerifyPkpass, pngSize, readPkpass } from '@medfolio/testing';
import { uploadFiles } from './documents-journey';
import { call, type Mailbox } from './journey';
import { waitFor } from './processes';
import { medicationListPdf, signUp } from './summary-journey';

function check(condition: boolean, what: string, detail?: unknown): void {
  if (!condition) throw new Error(`${what}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`);
}

type PassJson = { serialNumber: string; authenticationToken: string; passTypeIdentifier: string; webServiceURL: string; barcodes: Array<{ message: string; format: string }> };

async function fetchPass(base: string, url: string): Promise<{ response: Response; files: Map<string, Buffer> }> {
  const response = await fetch(new URL(url, base));
  return { response, files: response.status === 200 ? await readPkpass(Buffer.from(await response.arrayBuffer())) : new Map() };
}

const passJsonOf = (files: Map<string, Buffer>) => JSON.parse(files.get('pass.json')?.toString('utf8') ?? '{}') as PassJson;

/**
 * The wallet pass as a patient and a phone use it, through the gateway: a patient with a confirmed
 * summary asks for the pass (GET /api/get-pass-url/), downloads it (application/vnd.apple.pkpass,
 * medfolio_{id}.pkpass), and it verifies: manifest SHA-1s, OpenSSL against the development WWDR
 * certificate in the wallet's DATA_DIR, images at 1x/2x/3x, and none of the summary's text. Its QR
 * opens the summary. A "phone" then uses Apple's web service under /api/passkit/v1 (good token,
 * wrong token 401, wrong serial 404); the patient revokes the pass's link on the share panel; the
 * pass is retired: its serial is listed as updated, then its token answers 401 for
 * the pass, registration and unregistration (no new link is made for it), its QR no longer opens the
 * summary, the dashboard's status says 'retired', and the patient issues a new pass (a new serial,
 * token and link) whose QR opens the summary.
 */
export async function walletJourney(base: string, mailbox: Mailbox, walletDataDir: string): Promise<void> {
  const patient = await signUp(base, mailbox, 'Wren');
  const upload = await uploadFiles(base, patient.token, [{ name: 'visit-note.pdf', data: await medicationListPdf(), type: 'application/pdf' }]);
  check(upload.status === 201, 'upload', upload.body);
  const ready = await waitFor('the summary to be ready', async () => {
    const item = (await call<SummaryItem[]>(base, 'GET', `/api/summary/?user=${patient.id}`, undefined, patient.token)).body[0];
    return item?.status === 'ready' && item.version >= 1 ? item : undefined;
  });
  const confirmed = await call(base, 'POST', '/api/summary/confirm/', { version: ready.version }, patient.token);
  check(confirmed.status === 200, 'confirm the summary', confirmed.body);

  check((await call(base, 'GET', '/api/get-pass-url/')).status === 401, 'the pass needs a token');
  const link = await call<{ url: string }>(base, 'GET', '/api/get-pass-url/', undefined, patient.token);
  check(link.status === 200 && link.body.url.startsWith('/api/files/wallet-passes/'), 'GET /api/get-pass-url/', link);
  const { response, files } = await fetchPass(base, link.body.url);
  check(response.status === 200, 'the pass downloads', response.status);
  check(response.headers.get('content-type') === 'application/vnd.apple.pkpass', 'the pass content type', response.headers.get('content-type'));
  check((response.headers.get('content-disposition') ?? '').includes(`medfolio_${patient.id}.pkpass`), 'the pass file name', response.headers.get('content-disposition'));
  check(manifestProblems(files).length === 0, 'manifest.json lists every file with its SHA-1', manifestProblems(files));
  const ca = await readFile(`${walletDataDir}/wallet/development-wwdr-ca.pem`, 'utf8');
  const verified = await opensslVerifyPkpass(files, ca);
  check(verified.includes('Verification successful'), 'openssl smime -verify', verified);
  check(pngSize(files.get('icon@3x.png')!).width === 87 && pngSize(files.get('logo@2x.png')!).width === 320, 'images at 2x and 3x');

  const pass = passJsonOf(files);
  const text = files.get('pass.json')!.toString('utf8');
  const facts = ready.sections.flatMap((s) => s.facts.map((f) => f.text));
  check(facts.length > 0, 'the summary has facts to look for', ready.sections);
  for (const needle of [...facts, 'Metformin', 'Lisinopril', 'NKDA', 'Wren']) check(!text.includes(needle), `pass.json holds no "${needle}"`);
  const qr = pass.barcodes[0]?.message ?? '';
  const shareId = qr.split('/summary/')[1] ?? '';
  const shared = await call<SummaryItem[]>(base, 'GET', `/api/summary/?user=${encodeURIComponent(shareId)}`);
  check(shared.status === 200 && (shared.body[0]?.summary ?? '').includes('Metformin'), "the pass's QR opens the summary", shared);

  // A phone, through Apple's web service.
  const ws = `/api/passkit/v1`;
  const device = `device-${randomUUID().slice(0, 8)}`;
  const apple = async (method: string, path: string, token: string, body?: unknown, extra: Record<string, string> = {}) =>
    fetch(`${base}${ws}${path}`, { method, headers: { authorization: `ApplePass ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...extra }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const registration = `/devices/${device}/registrations/${pass.passTypeIdentifier}/${pass.serialNumber}`;
  check(pass.webServiceURL.endsWith('/api/passkit/'), 'webServiceURL', pass.webServiceURL);
  check((await apple('POST', registration, pass.authenticationToken, { pushToken: 'abc123' })).status === 201, 'register: 201');
  check((await apple('POST', registration, pass.authenticationToken, { pushToken: 'abc123' })).status === 200, 'register again: 200');
  check((await apple('POST', registration, 'wrong-token-wrong-token', { pushToken: 'abc123' })).status === 401, 'register, wrong token: 401');
  check((await apple('POST', `/devices/${device}/registrations/${pass.passTypeIdentifier}/${randomUUID()}`, pass.authenticationToken, { pushToken: 'abc123' })).status === 404, 'register, wrong serial: 404');
  const listed = await apple('GET', `/devices/${device}/registrations/${pass.passTypeIdentifier}`, '');
  const list = (await listed.json()) as { serialNumbers: string[]; lastUpdated: string };
  check(listed.status === 200 && list.serialNumbers.includes(pass.serialNumber), 'the device lists its serial', list);
  check((await apple('GET', `/devices/${device}/registrations/${pass.passTypeIdentifier}?passesUpdatedSince=${list.lastUpdated}`, '')).status === 204, 'nothing changed since: 204');

  const latest = await apple('GET', `/passes/${pass.passTypeIdentifier}/${pass.serialNumber}`, pass.authenticationToken);
  const lastModified = latest.headers.get('last-modified') ?? '';
  check(latest.status === 200 && latest.headers.get('content-type') === 'application/vnd.apple.pkpass' && lastModified !== '', 'the latest pass with Last-Modified', latest.status);
  check((await apple('GET', `/passes/${pass.passTypeIdentifier}/${pass.serialNumber}`, pass.authenticationToken, undefined, { 'if-modified-since': lastModified })).status === 304, 'If-Modified-Since: 304');
  check((await apple('GET', `/passes/${pass.passTypeIdentifier}/${pass.serialNumber}`, 'wrong-token-wrong-token')).status === 401, 'the pass, wrong token: 401');
  check((await apple('GET', `/passes/${pass.passTypeIdentifier}/${randomUUID()}`, pass.authenticationToken)).status === 404, 'the pass, wrong serial: 404');
  check((await apple('DELETE', registration, 'wrong-token-wrong-token')).status === 401, 'unregister, wrong token: 401');
  check((await apple('DELETE', `/devices/${device}/registrations/${pass.passTypeIdentifier}/${randomUUID()}`, pass.authenticationToken)).status === 404, 'unregister, wrong serial: 404');
  check((await apple('POST', '/log', '', { logs: ['Web service error: test'] })).status === 200, 'log: 200');

  // The patient revokes the pass's own link on the share panel.
  const links = await call<ShareLinkItem[]>(base, 'GET', '/api/share-links/', undefined, patient.token);
  const walletLink = links.body.find((l) => l.purpose === 'wallet' && !l.revoked_at);
  check(walletLink?.url === qr, "the pass's link is on the share panel", links.body);
  const revoked = await call(base, 'POST', `/api/share-links/${walletLink!.id}/revoke/`, {}, patient.token);
  check(revoked.status === 200, 'revoke', revoked.body);
  await waitFor('the pass listed as updated', async () => {
    const since = await apple('GET', `/devices/${device}/registrations/${pass.passTypeIdentifier}?passesUpdatedSince=${list.lastUpdated}`, '');
    return since.status === 200 && ((await since.json()) as { serialNumbers: string[] }).serialNumbers.includes(pass.serialNumber) ? true : undefined;
  });
  const linksBefore = (await call<ShareLinkItem[]>(base, 'GET', '/api/share-links/', undefined, patient.token)).body.length;
  for (const headers of [{ 'if-modified-since': lastModified }, {}] as Array<Record<string, string>>) {
    const retired = await apple('GET', `/passes/${pass.passTypeIdentifier}/${pass.serialNumber}`, pass.authenticationToken, undefined, headers);
    check(retired.status === 401, 'the retired pass: 401 (no newly signed pass, no new link)', retired.status);
  }
  check((await apple('POST', registration, pass.authenticationToken, { pushToken: 'abc123' })).status === 401, 'register the retired pass: 401');
  const afterRetired = (await call<ShareLinkItem[]>(base, 'GET', '/api/share-links/', undefined, patient.token)).body;
  check(afterRetired.length === linksBefore && !afterRetired.some((l) => l.purpose === 'wallet' && !l.revoked_at), 'no link was made for the retired pass', afterRetired);
  const old = await call<{ message: string }>(base, 'GET', `/api/summary/?user=${encodeURIComponent(shareId)}`);
  check(old.status === 404 && old.body.message === 'This link is not valid.', "the old pass's QR no longer opens the summary", old);
  const status = await call<{ state: string; retired_at: string | null }>(base, 'GET', '/api/wallet/status/', undefined, patient.token);
  check(status.status === 200 && status.body.state === 'retired' && status.body.retired_at !== null, 'the dashboard is told the pass was retired', status);

  // The patient issues a new pass from the dashboard.
  const again = await call<{ url: string }>(base, 'GET', '/api/get-pass-url/', undefined, patient.token);
  check(again.status === 200, 'a new pass', again);
  const renewed = passJsonOf((await fetchPass(base, again.body.url)).files);
  check(renewed.serialNumber !== pass.serialNumber && renewed.authenticationToken !== pass.authenticationToken, 'the new pass has its own serial and token', renewed.serialNumber);
  const newQr = renewed.barcodes[0]?.message ?? '';
  check(newQr !== '' && newQr !== qr, 'the new pass carries a new link', { qr, newQr });
  const fresh = await call<SummaryItem[]>(base, 'GET', `/api/summary/?user=${encodeURIComponent(newQr.split('/summary/')[1] ?? '')}`);
  check(fresh.status === 200, "the new pass's QR opens the summary", fresh.status);
  check((await apple('GET', `/passes/${renewed.passTypeIdentifier}/${renewed.serialNumber}`, renewed.authenticationToken)).status === 200, "the new pass's token works");
  check((await apple('GET', `/passes/${pass.passTypeIdentifier}/${pass.serialNumber}`, pass.authenticationToken)).status === 401, "the old pass's token still does not");
  check((await call<{ state: string }>(base, 'GET', '/api/wallet/status/', undefined, patient.token)).body.state === 'active', 'the status is active again');
  check((await apple('DELETE', registration, pass.authenticationToken)).status === 401, 'unregister the retired pass: 401');
}
