import { randomUUID } from 'node:crypto';
import type { DocumentListItem, DownloadLinkReply, HistoryPage, PatientAccessReply, ProviderPatientItem, Profile, RequestAccessReply, ShareLinkItem, TokenPair } from '@medfolio/contracts';
import { documentFiles } from '@medfolio/testing';
import { uploadFiles } from './documents-journey';
import { call, codeFor, type Mailbox } from './journey';
import { waitFor } from './processes';

function check(condition: boolean, what: string, detail?: unknown): void {
  if (!condition) throw new Error(`${what}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`);
}

interface Account {
  id: string;
  email: string;
  access: string;
  refresh: string;
}

async function signUp(base: string, mailbox: Mailbox, name: string): Promise<Account> {
  const email = `${name.split(' ')[0]!.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'correct horse battery';
  const registered = await call(base, 'POST', '/api/register/', { first_name: name, phone: '+1 202 555 0143', email, password, date_of_birth: '1980-04-04' });
  check(registered.status === 201, 'register', registered.body);
  await call(base, 'POST', '/api/verify-otp/', { email, otp: await codeFor(mailbox, email) });
  const login = await call<TokenPair>(base, 'POST', '/api/login/', { email, password });
  check(login.status === 200, 'login', login.body);
  const me = await call<Profile>(base, 'GET', '/api/profile/', undefined, login.body.access);
  return { id: me.body.id, email, ...login.body };
}

/** The operators' review: the `license-review` command, where the run mode can run it. */
export interface LicenseOperator {
  /** `license-review approve <npi> --operator ...`: the pending claim on the NPI becomes verified. */
  approve(npi: string): Promise<void>;
}

/**
 * Providers over HTTP, against a registry stand-in (NPI_REGISTRY_URL → FakeNppes with
 * Dr Ana María Ruiz, NPI 1234567893): a doctor verifies her license (the role reaches the next
 * token); a patient shares a summary; the access matrix of every provider route (doctor before a
 * grant, an unverified user, signed out: 404/403/401; the patient's own routes); the doctor asks
 * from the share id, the patient is e-mailed and approves for a day; the doctor lists, downloads
 * (the same bytes) and reads the summary; the patient's history names her; revoked: 404 again.
 * A registry name match is only a self-attested claim: the patient is told
 * "claims to be Dr ...; not verified", and a link that pre-approves verified providers makes a
 * self-attested one ask; verified through the operator command (where `operator` is given: the
 * embedded product's database is its process's own), the provider is let in by such a link at once.
 */
export async function providersJourney(base: string, mailbox: Mailbox, operator?: LicenseOperator): Promise<void> {
  const patient = await signUp(base, mailbox, 'Pat Lee');
  const doctor = await signUp(base, mailbox, 'Ana Ruiz');
  const stranger = await signUp(base, mailbox, 'Sam Cole');
  // The dashboard's default link (its QR code and View Summary), as a patient most often shares.
  const link = await call<ShareLinkItem>(base, 'GET', '/api/share-links/default/', undefined, patient.access);
  check(link.status === 200, 'share link', link.body);
  const shareId = link.body.share_id;
  const pdf = documentFiles.pdf('labs.pdf');
  const upload = await uploadFiles(base, patient.access, [{ name: 'labs.pdf', data: pdf, type: 'application/pdf' }]);
  check(upload.status === 201, 'upload', upload.body);
  const documentId = upload.body.documents[0]!.id;

  // The license: a wrong check digit never reaches the registry; the right number verifies her.
  const typo = await call<{ message: string }>(base, 'POST', '/api/medical-license/', { license_number: '1234567890' }, doctor.access);
  check(typo.status === 404 && typo.body.message === 'Medical License Number Not Found, Please Try Again', 'a wrong check digit', typo);
  const notHers = await call<{ message: string }>(base, 'POST', '/api/medical-license/', { license_number: '1234567893' }, stranger.access);
  check(notHers.status === 400, "another name's NPI", notHers);
  const verified = await call<{ message: string; provider: { display_name: string; verification: string; review: string } }>(base, 'POST', '/api/medical-license/', { license_number: '1234 5678 93' }, doctor.access);
  check(verified.status === 200 && verified.body.message === 'License verified successfully!', 'verify', verified.body);
  check(verified.body.provider.display_name === 'Dr Ana Ruiz (NPI 1234567893)', 'display name', verified.body);
  // A name match against a public registry is a claim: self-attested, waiting for an operator.
  check(verified.body.provider.verification === 'self_attested' && verified.body.provider.review === 'pending', 'self-attested until reviewed', verified.body);
  // The access token from before still carries only 'patient': provider routes need the next one.
  const before = await call(base, 'GET', '/api/providers/patients/', undefined, doctor.access);
  const refreshed = await call<TokenPair>(base, 'POST', '/api/token/refresh/', { refresh: doctor.refresh });
  check(refreshed.status === 200, 'refresh', refreshed.body);
  const ana = refreshed.body.access;
  const profile = await call<Profile>(base, 'GET', '/api/profile/', undefined, ana);
  check(profile.body.roles.includes('provider') && profile.body.provider?.specialty === 'Internal Medicine', 'profile shows the role', profile.body);
  check(before.status === 200, 'patients list with the old token (verified in identity, so listed empty)', before);

  const routes = (patientId: string) => ({
    patients: ['GET', '/api/providers/patients/'],
    documents: ['GET', `/api/providers/patients/${patientId}/documents/`],
    download: ['GET', `/api/providers/patients/${patientId}/documents/${documentId}/download-link/`],
    summary: ['GET', `/api/providers/patients/${patientId}/summary/`],
    ips: ['GET', `/api/providers/patients/${patientId}/summary/fhir/`],
  });
  const matrix = async (token: string | undefined) => {
    const out: Record<string, number> = {};
    for (const [name, [method, path]] of Object.entries(routes(patient.id))) out[name] = (await call(base, method!, path!, undefined, token)).status;
    return out;
  };
  const none = { patients: 200, documents: 404, download: 404, summary: 404, ips: 404 };
  check(JSON.stringify(await matrix(ana)) === JSON.stringify(none), 'doctor before a grant', await matrix(ana));
  check(JSON.stringify(await matrix(stranger.access)) === JSON.stringify({ patients: 403, documents: 404, download: 404, summary: 404, ips: 404 }), 'unverified user', await matrix(stranger.access));
  check(JSON.stringify(await matrix(undefined)) === JSON.stringify({ patients: 401, documents: 401, download: 401, summary: 401, ips: 401 }), 'signed out', await matrix(undefined));
  check(JSON.stringify(await matrix(patient.access)) === JSON.stringify({ patients: 403, documents: 404, download: 404, summary: 404, ips: 404 }), "the patient on provider routes", await matrix(patient.access));
  check((await call(base, 'POST', '/api/providers/access-requests/', { share_id: shareId }, stranger.access)).status === 403, 'an unverified user cannot ask');
  check((await call(base, 'POST', '/api/providers/access-requests/', { share_id: shareId })).status === 401, 'signed out cannot ask');

  // The request, the e-mail, the approval.
  const asked = await call<RequestAccessReply>(base, 'POST', '/api/providers/access-requests/', { share_id: shareId }, ana);
  check(asked.status === 200 && asked.body.state === 'pending', 'request', asked.body);
  const mail = await waitFor('the request e-mail', async () => (await mailbox.textsTo(patient.email)).find((t) => t.includes('Dr Ana Ruiz (NPI 1234567893)') && t.includes('/providers/access')));
  check(mail.includes('claims to be Dr Ana Ruiz (NPI 1234567893); not verified') && !mail.includes('verified in the national provider registry'), 'the e-mail says she is not verified', mail);
  const pending = await call<PatientAccessReply>(base, 'GET', '/api/providers/access/', undefined, patient.access);
  const request = pending.body.requests[0];
  check(request?.provider.display_name === 'Dr Ana Ruiz (NPI 1234567893)' && request.provider.verification === 'self_attested', 'the patient sees the request, as a claim', pending.body);
  check((await call(base, 'POST', `/api/providers/access-requests/${request!.id}/decision/`, { decision: 'approve', duration: 'day' }, stranger.access)).status === 404, 'only the patient decides');
  const approved = await call<PatientAccessReply>(base, 'POST', `/api/providers/access-requests/${request!.id}/decision/`, { decision: 'approve', duration: 'day' }, patient.access);
  check(approved.status === 200 && approved.body.grants[0]?.active === true, 'approve', approved.body);

  // With the grant: read-only documents, the same bytes, the summary.
  check(JSON.stringify(await matrix(ana)) === JSON.stringify({ patients: 200, documents: 200, download: 200, summary: 200, ips: 200 }), 'doctor with a grant', await matrix(ana));
  const patients = await call<ProviderPatientItem[]>(base, 'GET', '/api/providers/patients/', undefined, ana);
  check(patients.body[0]?.patient_id === patient.id && patients.body[0].first_name === 'Pat Lee', 'patients', patients.body);
  const listed = await call<DocumentListItem[]>(base, 'GET', `/api/providers/patients/${patient.id}/documents/`, undefined, ana);
  check(listed.body.map((d) => d.filename).join() === 'labs.pdf', 'documents', listed.body);
  const dl = await call<DownloadLinkReply>(base, 'GET', `/api/providers/patients/${patient.id}/documents/${documentId}/download-link/`, undefined, ana);
  const file = await fetch(new URL(dl.body.download_url, base));
  check(file.status === 200 && Buffer.from(await file.arrayBuffer()).equals(pdf), 'the downloaded bytes', file.status);
  check((await call(base, 'DELETE', '/api/upload/', { document_id: documentId }, ana)).status === 404, 'read-only: the doctor cannot delete');
  check(JSON.stringify(await matrix(stranger.access)) === JSON.stringify({ patients: 403, documents: 404, download: 404, summary: 404, ips: 404 }), 'unverified user, grant to another', await matrix(stranger.access));

  const ips = await call<{ resourceType: string; type: string }>(base, 'GET', `/api/providers/patients/${patient.id}/summary/fhir/`, undefined, ana);
  check(ips.body.resourceType === 'Bundle' && ips.body.type === 'document' && (ips.headers.get('content-type') ?? '').startsWith('application/fhir+json'), 'the IPS Bundle', ips.body);

  // The patient's history names her.
  const history = await waitFor('the download in the history', async () => {
    const page = await call<HistoryPage>(base, 'GET', '/api/history/?page_size=100', undefined, patient.access);
    return page.body.results.find((r) => r.action === 'document.download-link' && r.who === 'claims to be Dr Ana Ruiz (NPI 1234567893); not verified' && r.entity_id === documentId);
  });
  check(history.what === 'Downloaded a document', 'history entry', history);

  // A link made with "verified providers may see documents": a self-attested provider only asks.
  const open = await call<ShareLinkItem>(base, 'POST', '/api/share-links/', { label: 'For any verified doctor', providers_may_see_documents: true }, patient.access);
  check(open.status === 201 || open.status === 200, 'a pre-approving link', open.body);
  const john = await signUp(base, mailbox, 'John Smith');
  check((await call(base, 'POST', '/api/medical-license/', { license_number: '1003000126' }, john.access)).status === 200, "John's license");
  const johnTokens = (await call<TokenPair>(base, 'POST', '/api/token/refresh/', { refresh: john.refresh })).body;
  const johnToken = johnTokens.access;
  const onlyAsked = await call<RequestAccessReply>(base, 'POST', '/api/providers/access-requests/', { share_id: open.body.share_id }, johnToken);
  check(onlyAsked.body.state === 'pending' && onlyAsked.body.patient_id === null, 'self-attested: asked, not granted', onlyAsked.body);
  check((await call(base, 'GET', `/api/providers/patients/${patient.id}/documents/`, undefined, johnToken)).status === 404, 'John sees nothing yet');

  // Verified by an operator (the license-review command), the same link lets him in at once.
  if (operator) {
    await operator.approve('1003000126');
    const facts = await call<{ verification: string }>(base, 'GET', '/api/medical-license/', undefined, johnToken);
    check(facts.status === 200 && facts.body.verification === 'verified', 'verified by the operator', facts.body);
    const granted = await call<RequestAccessReply>(base, 'POST', '/api/providers/access-requests/', { share_id: open.body.share_id }, johnToken);
    check(granted.body.state === 'granted' && granted.body.patient_id === patient.id, 'granted at once', granted.body);
    check((await call(base, 'GET', `/api/providers/patients/${patient.id}/documents/`, undefined, johnToken)).status === 200, 'John sees the documents');
    const grants = await call<PatientAccessReply>(base, 'GET', '/api/providers/access/', undefined, patient.access);
    check(grants.body.grants.some((g) => g.provider.npi === '1003000126' && g.source === 'share-link' && g.provider.verification === 'verified'), 'the patient sees a verified provider', grants.body);

    // The verified name is locked: renaming the profile drops the role from the next token.
    const renamed = await call<Profile>(base, 'PUT', '/api/profile/', { first_name: 'Mallory', last_name: '', phone: '+1 202 555 0143' }, johnToken);
    check(renamed.status === 200 && !renamed.body.roles.includes('provider'), 'a rename drops the role', renamed.body);
    const after = await call<TokenPair>(base, 'POST', '/api/token/refresh/', { refresh: johnTokens.refresh });
    check(after.status === 200, 'refresh after the rename', after.body);
    const dropped = await call(base, 'GET', `/api/providers/patients/${patient.id}/documents/`, undefined, after.body.access);
    check(dropped.status === 404, 'no provider role in the next token', dropped.status);
  }

  // Revoked: 404 at once.
  const grantId = approved.body.grants.find((g) => g.provider.npi === '1234567893')!.id;
  const revoked = await call<PatientAccessReply>(base, 'DELETE', `/api/providers/grants/${grantId}/`, undefined, patient.access);
  check(revoked.status === 200 && revoked.body.grants.find((g) => g.id === grantId)?.active === false, 'revoke', revoked.body);
  check(JSON.stringify(await matrix(ana)) === JSON.stringify(none), 'doctor after revoke', await matrix(ana));
}

/**
 * What a share link leads to, over HTTP: a patient's passcode link
 * that pre-approves verified providers gives a provider nothing without its passcode (403, no request,
 * no grant), and only with the view token the page's unlock gives; then, where an operator can verify
 * the provider (`operator`), the grant the link made ends when the link is revoked (documents follows
 * the summary service's share-link events), and so does one from a link whose "verified providers may
 * see documents" is turned off; the patient's history says so. Dr Mei Chen (NPI 1987654328) is the
 * registry stand-in's third sample, so this runs beside providersJourney.
 */
export async function linkAccessJourney(base: string, mailbox: Mailbox, operator?: LicenseOperator): Promise<void> {
  const patient = await signUp(base, mailbox, 'Kim Park');
  const doctor = await signUp(base, mailbox, 'Mei Chen');
  const claimed = await call(base, 'POST', '/api/medical-license/', { license_number: '1987654328' }, doctor.access);
  check(claimed.status === 200, "Mei's license", claimed.body);
  if (operator) await operator.approve('1987654328');
  const mei = (await call<TokenPair>(base, 'POST', '/api/token/refresh/', { refresh: doctor.refresh })).body.access;
  const documents = async () => (await call(base, 'GET', `/api/providers/patients/${patient.id}/documents/`, undefined, mei)).status;
  const ask = (body: Record<string, string>) => call<RequestAccessReply & { message: string }>(base, 'POST', '/api/providers/access-requests/', body, mei);

  // A passcode link that lets verified providers in: without its passcode, nothing.
  const guarded = await call<ShareLinkItem>(base, 'POST', '/api/share-links/', { label: 'For Dr Chen', passcode: 'blue-heron', providers_may_see_documents: true }, patient.access);
  check(guarded.status === 201, 'a passcode link that pre-approves', guarded.body);
  const bare = await ask({ share_id: guarded.body.share_id });
  check(bare.status === 403 && bare.body.message === 'This link needs a passcode.', 'no view token: 403', bare);
  const forged = await ask({ share_id: guarded.body.share_id, view_token: `${Math.floor(Date.now() / 1000) + 600}.${'A'.repeat(43)}` });
  check(forged.status === 403, 'a made-up view token: 403', forged);
  const untouched = await call<PatientAccessReply>(base, 'GET', '/api/providers/access/', undefined, patient.access);
  check(untouched.body.requests.length === 0 && untouched.body.grants.length === 0, 'no request and no grant without the passcode', untouched.body);
  check((await documents()) === 404, 'no documents without the passcode');

  // With the passcode, as the page sends the view token its unlock gave.
  const unlocked = await call<{ view_token: string }>(base, 'POST', '/api/summary/unlock/', { user: guarded.body.share_id, passcode: 'blue-heron' });
  check(unlocked.status === 200, 'unlock', unlocked.body);
  const asked = await ask({ share_id: guarded.body.share_id, view_token: unlocked.body.view_token });
  if (!operator) {
    // Self-attested (no operator in this run mode): the link makes her ask.
    check(asked.status === 200 && asked.body.state === 'pending', 'with the view token: asked', asked.body);
    return;
  }
  check(asked.status === 200 && asked.body.state === 'granted' && asked.body.patient_id === patient.id, 'with the view token: granted', asked.body);
  check((await documents()) === 200, 'the documents with the grant');

  // Revoking the link ends the grant it made.
  const revoked = await call(base, 'POST', `/api/share-links/${guarded.body.id}/revoke/`, undefined, patient.access);
  check(revoked.status === 200, 'revoke the link', revoked.body);
  await waitFor('the grant ends with the link', async () => ((await documents()) === 404 ? true : undefined));
  const after = await call<PatientAccessReply>(base, 'GET', '/api/providers/access/', undefined, patient.access);
  const ended = after.body.grants.find((g) => g.source === 'share-link' && g.provider.npi === '1987654328');
  check(ended?.active === false && ended.revoked_at !== null, 'the patient sees the grant ended', after.body);
  const history = await waitFor('the ending in the history', async () => {
    const page = await call<HistoryPage>(base, 'GET', '/api/history/?page_size=100', undefined, patient.access);
    return page.body.results.find((r) => r.action === 'provider-access.end' && r.entity_id === ended!.id);
  });
  check(history.who === 'you' && history.what === "A provider's access ended with the share link that gave it", 'the history entry', history);

  // Turning "verified providers may see documents" off ends the grants the link made, too.
  const open = await call<ShareLinkItem>(base, 'POST', '/api/share-links/', { label: 'Any verified doctor', providers_may_see_documents: true }, patient.access);
  check((await ask({ share_id: open.body.share_id })).body.state === 'granted', 'granted again through another link');
  check((await documents()) === 200, 'the documents again');
  const off = await call<ShareLinkItem>(base, 'PATCH', `/api/share-links/${open.body.id}/`, { providers_may_see_documents: false }, patient.access);
  check(off.status === 200 && off.body.providers_may_see_documents === false, 'the setting turned off', off.body);
  await waitFor('the grant ends with the setting', async () => ((await documents()) === 404 ? true : undefined));
}
