import { randomUUID } from 'node:crypto';
import type { FamilyInvite, FamilyInvitePreview, FamilyOverview, FamilyRecord, HistoryPage, UploadReply } from '@medfolio/contracts';
import { documentFiles } from '@medfolio/testing';
import { call, codeFor, type Mailbox, type Reply } from './journey';
import { waitFor } from './processes';
import type { OpenApiDocument } from './security-matrix';

/** Someone signed up, verified and signed in through the API. */
export interface Person {
  id: string;
  email: string;
  firstName: string;
  token: string;
}

function check(condition: boolean, what: string, detail?: unknown): void {
  if (!condition) throw new Error(`${what}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`);
}

export async function signUp(base: string, mailbox: Mailbox, firstName: string): Promise<Person> {
  const email = `${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'family horse battery';
  const registered = await call(base, 'POST', '/api/register/', { first_name: firstName, phone: '+1 202 555 0143', email, password, date_of_birth: '1984-03-03' });
  check(registered.status === 201, `register ${firstName}`, registered.body);
  await call(base, 'POST', '/api/verify-otp/', { email, otp: await codeFor(mailbox, email) });
  const login = await call<{ access: string }>(base, 'POST', '/api/login/', { email, password });
  check(login.status === 200, `login ${firstName}`, login.body);
  const me = await call<{ id: string }>(base, 'GET', '/api/profile/', undefined, login.body.access);
  return { id: me.body.id, email, firstName, token: login.body.access };
}

/** A request as `who`, on the record `patient` names (X-Patient-Id), or their own. */
export function as(base: string, who: Person, patient?: string) {
  return <T = unknown>(method: string, path: string, body?: unknown): Promise<Reply<T>> =>
    call<T>(base, method, path, body, who.token, patient ? { 'x-patient-id': patient } : {});
}

export async function uploadFor(base: string, who: Person, patient: string | undefined, name: string): Promise<Reply<UploadReply & { message?: string }>> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(documentFiles.pdf(`${name} ${randomUUID()}`))], { type: 'application/pdf' }), name);
  const headers: Record<string, string> = { authorization: `Bearer ${who.token}` };
  if (patient) headers['x-patient-id'] = patient;
  const response = await fetch(`${base}/api/upload/`, { method: 'POST', body: form, headers });
  return { status: response.status, body: (await response.json()) as UploadReply & { message?: string }, headers: response.headers };
}

/** The invitation link's token from the newest family-invite e-mail to `to`. */
export async function inviteTokenFor(mailbox: Mailbox, to: string): Promise<string> {
  return waitFor(`a family invitation for ${to}`, async () => {
    for (const text of await mailbox.textsTo(to)) {
      const token = /\/family\/invite\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];
      if (token) return token;
    }
    return undefined;
  });
}

/** Invites `who` to `patient`'s record with `role` (as `admin`), and has them accept through the link. */
export async function grant(base: string, mailbox: Mailbox, admin: Person, patient: string, who: Person, role: 'view' | 'manage'): Promise<string> {
  const invite = await as(base, admin)<FamilyInvite>('POST', '/api/family/invites/', { patient_id: patient, email: who.email, role });
  check(invite.status === 201, `invite ${who.firstName}`, invite.body);
  const token = await inviteTokenFor(mailbox, who.email);
  const accepted = await as(base, who)<FamilyRecord>('POST', `/api/family/invites/${token}/accept/`);
  check(accepted.status === 200 && accepted.body.patient_id === patient && accepted.body.my_role === role, `${who.firstName} accepts`, accepted.body);
  const overview = await as(base, admin)<FamilyOverview>('GET', '/api/family/members/');
  const member = overview.body.members.find((m) => m.kind === 'caregiver' && m.patient_id === patient && m.name.startsWith(who.firstName) && m.status === 'active');
  check(member !== undefined, `${who.firstName} among the members`, overview.body);
  return member!.id;
}

/**
 * The journey of issue 30 over HTTP: a parent adds a child, uploads for the child, invites a
 * co-parent, who accepts and reads the child's summary and documents but not the parent's own
 * record and cannot change the child's; given manage, the co-parent uploads for the child and the
 * child's history names them; revoked, their next request is refused.
 */
export async function familyJourney(base: string, mailbox: Mailbox): Promise<void> {
  const ada = await signUp(base, mailbox, 'Ada');
  const ben = await signUp(base, mailbox, 'Ben');

  const added = await as(base, ada)<FamilyRecord>('POST', '/api/family/members/', { first_name: 'Leo', last_name: 'Example', date_of_birth: '2019-05-05' });
  check(added.status === 201 && added.body.kind === 'dependant' && added.body.my_role === 'guardian' && added.body.age_band === 'child', 'add Leo', added.body);
  const leo = added.body.patient_id;

  const forLeo = await uploadFor(base, ada, leo, 'vaccinations.pdf');
  check(forLeo.status === 201, "upload for Leo", forLeo.body);
  const adaOwn = await uploadFor(base, ada, undefined, 'ada-own.pdf');
  check(adaOwn.status === 201, "Ada's own upload", adaOwn.body);
  const leoList = await as(base, ada, leo)<{ filename: string }[]>('GET', '/api/upload/');
  check(leoList.status === 200 && leoList.body.map((d) => d.filename).join() === 'vaccinations.pdf', "Leo's documents are Leo's only", leoList.body);

  // The profile is never acted on for someone else.
  const profile = await as(base, ada, leo)<{ message: string }>('GET', '/api/profile/');
  check(profile.status === 403 && /only for your own account/.test(profile.body.message), 'profile on behalf refused', profile.body);

  // The invitation: public preview, then accepted by the co-parent signed in.
  const invite = await as(base, ada)<FamilyInvite>('POST', '/api/family/invites/', { patient_id: leo, email: ben.email, role: 'view' });
  check(invite.status === 201 && invite.body.status === 'pending', 'invite Ben', invite.body);
  const token = await inviteTokenFor(mailbox, ben.email);
  const preview = await call<FamilyInvitePreview>(base, 'GET', `/api/family/invites/${token}/accept/`);
  check(preview.status === 200 && preview.body.patient_first_name === 'Leo' && preview.body.inviter_first_name === 'Ada' && preview.body.role === 'view', 'preview', preview.body);
  const accepted = await as(base, ben)<FamilyRecord>('POST', `/api/family/invites/${token}/accept/`);
  check(accepted.status === 200 && accepted.body.kind === 'shared' && accepted.body.my_role === 'view', 'Ben accepts', accepted.body);
  const again = await as(base, ben)('POST', `/api/family/invites/${token}/accept/`);
  check(again.status === 404, 'the link works once', again.body);

  // Ben reads Leo's summary and documents; not Ada's record; cannot upload for Leo.
  const summary = await as(base, ben, leo)<unknown[]>('GET', `/api/summary/?user=${leo}`);
  check(summary.status === 200 && Array.isArray(summary.body), "Ben reads Leo's summary", summary.body);
  const benSees = await as(base, ben, leo)<{ filename: string }[]>('GET', '/api/upload/');
  check(benSees.status === 200 && benSees.body.map((d) => d.filename).join() === 'vaccinations.pdf', "Ben lists Leo's documents", benSees.body);
  const adaRecord = await as(base, ben, ada.id)<{ message: string }>('GET', '/api/upload/');
  check(adaRecord.status === 403, "Ben cannot open Ada's record", adaRecord.body);
  const adaSummary = await as(base, ben, ada.id)('GET', `/api/summary/?user=${ada.id}`);
  check(adaSummary.status === 403, "Ben cannot read Ada's summary", adaSummary.body);
  const viewOnly = await uploadFor(base, ben, leo, 'not-allowed.pdf');
  check(viewOnly.status === 403 && /can view Leo's record but not change it/.test(viewOnly.body.message ?? ''), 'view cannot upload', viewOnly.body);

  // Manage: Ben uploads for Leo, and Leo's history (read by his guardian) names him.
  const overview = await as(base, ada)<FamilyOverview>('GET', '/api/family/members/');
  const benGrant = overview.body.members.find((m) => m.kind === 'caregiver' && m.patient_id === leo)!;
  check(benGrant !== undefined && benGrant.last_active_at !== null, "Ben among Leo's members, with his last activity", overview.body);
  const promoted = await as(base, ada)<{ role: string }>('PATCH', `/api/family/members/${benGrant.id}/`, { role: 'manage' });
  check(promoted.status === 200 && promoted.body.role === 'manage', 'Ben may manage', promoted.body);
  const benUpload = await uploadFor(base, ben, leo, 'lab-results.pdf');
  check(benUpload.status === 201, 'Ben uploads for Leo', benUpload.body);
  const labId = benUpload.body.documents[0]!.id;
  const line = await waitFor("Ben's upload in Leo's history", async () => {
    const history = await as(base, ada, leo)<HistoryPage>('GET', '/api/history/?page_size=100');
    return history.body.results?.find((e) => e.action === 'document.upload' && e.entity_id === labId);
  });
  check(line.who === 'Ben (caregiver)' && line.actor_name === 'Ben' && line.actor_relation === 'caregiver', 'the history names Ben', line);
  const adaUploadLine = await waitFor("Ada's upload in Leo's history", async () => {
    const history = await as(base, ada, leo)<HistoryPage>('GET', '/api/history/?page_size=100');
    return history.body.results?.find((e) => e.action === 'document.upload' && e.entity_id === forLeo.body.documents[0]!.id);
  });
  check(adaUploadLine.who === 'you', "Ada's own act on Leo's record is 'you' to her", adaUploadLine);
  const adaHistory = await as(base, ada)<HistoryPage>('GET', '/api/history/?page_size=100');
  check(!adaHistory.body.results.some((e) => e.entity_id === labId), "Leo's history is not Ada's", adaHistory.body.results.slice(0, 3));

  // Revoked: the next request is refused.
  const revoked = await as(base, ada)('DELETE', `/api/family/members/${benGrant.id}/`);
  check(revoked.status === 200, 'revoke Ben', revoked.body);
  const after = await as(base, ben, leo)<{ message: string }>('GET', '/api/upload/');
  check(after.status === 403 && after.body.message === 'You do not have access to this record.', "Ben's next request is refused", after.body);
}

export interface RoleCaller {
  name: string;
  who: Person;
  /** The record this caller names (X-Patient-Id). */
  patient: string;
  /** What the caller may do there: 'all' (owner, guardian, manage), 'read' (view), 'none'. */
  may: 'all' | 'read' | 'none';
}

/** Every route of the document that can act on another person's record (it takes X-Patient-Id), with its least role. */
export function onBehalfRoutes(document: { paths: Record<string, Record<string, { parameters?: { name: string; description?: string }[] }>> }) {
  const routes: { method: string; path: string; needs: 'view' | 'manage' }[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const header = operation.parameters?.find((p) => p.name === 'X-Patient-Id');
      if (!header) continue;
      routes.push({ method: method.toUpperCase(), path, needs: /role view/.test(header.description ?? '') ? 'view' : 'manage' });
    }
  }
  return routes;
}

/**
 * For every route that acts on another person's record, each caller's answer: allowed ones reach
 * the service (any answer but 401, 403 or a 5xx: a request with no body or unknown ids gets the
 * service's 400 or 404), refused ones get the gateway's 403. Reads need view; changes manage.
 */
export async function roleMatrix(base: string, document: OpenApiDocument, callers: RoleCaller[]): Promise<{ lines: string[]; problems: string[] }> {
  const lines: string[] = [];
  const problems: string[] = [];
  const routes = onBehalfRoutes(document as never);
  if (routes.length < 25) problems.push(`only ${routes.length} routes take X-Patient-Id`);
  for (const route of routes) {
    const results: string[] = [];
    for (const caller of callers) {
      const path = route.path.replace(/\{(\w+)\}/g, () => randomUUID());
      const query = /^\/api\/summary\/(fhir\/|pdf\/)?$/.test(route.path) ? `?user=${caller.patient}` : '';
      const response = await fetch(`${base}${path}${query}`, {
        method: route.method,
        headers: { authorization: `Bearer ${caller.who.token}`, 'x-patient-id': caller.patient },
      });
      const text = await response.text();
      const allowed = caller.may === 'all' || (caller.may === 'read' && route.needs === 'view');
      results.push(`${caller.name} ${response.status}`);
      if (allowed && (response.status === 401 || response.status === 403 || response.status >= 500)) problems.push(`${route.method} ${route.path}: ${caller.name} should be let through, got ${response.status} ${text.slice(0, 160)}`);
      if (!allowed && response.status !== 403) problems.push(`${route.method} ${route.path}: ${caller.name} should get 403, got ${response.status} ${text.slice(0, 160)}`);
    }
    lines.push(`${route.method} ${route.path} (${route.needs}): ${results.join(', ')}`);
  }
  return { lines, problems };
}

/** The link's token from the newest family-claim-invite e-mail to `to`. */
export async function claimTokenFor(mailbox: Mailbox, to: string): Promise<string> {
  return waitFor(`a claim link for ${to}`, async () => {
    for (const text of await mailbox.textsTo(to)) {
      const token = /\/family\/claim\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];
      if (token) return token;
    }
    return undefined;
  });
}

/**
 * A teen's own sign-in over HTTP: the guardian adds Tess (15), uploads two documents for her and
 * e-mails her the claim link; Tess chooses a password, signs in (her account's id is her record's),
 * is asked about her guardian's access and keeps it, marks one document private; the guardian (and a
 * co-parent invited as guardian) then neither list nor download it, and the summary they read does
 * not list it; marking private as a proxy is refused; Tess still sees everything; when Tess declines
 * her guardians' access, their next request is refused and the guardian is told by e-mail.
 */
export async function teenJourney(base: string, mailbox: Mailbox): Promise<void> {
  const gail = await signUp(base, mailbox, 'Gail');
  const carl = await signUp(base, mailbox, 'Carl');
  const born = `${new Date().getUTCFullYear() - 15}-02-02`;
  const added = await as(base, gail)<FamilyRecord>('POST', '/api/family/members/', { first_name: 'Tess', last_name: 'Example', date_of_birth: born });
  check(added.status === 201 && added.body.age_band === 'teen', 'add Tess', added.body);
  const tessId = added.body.patient_id;
  const school = await uploadFor(base, gail, tessId, 'school-note.pdf');
  const visit = await uploadFor(base, gail, tessId, 'clinic-visit.pdf');
  check(school.status === 201 && visit.status === 201, 'uploads for Tess', [school.body, visit.body]);
  const visitId = visit.body.documents[0]!.id;

  // A co-parent, invited as a second guardian.
  const coParent = await as(base, gail)<FamilyInvite>('POST', '/api/family/invites/', { patient_id: tessId, email: carl.email, role: 'guardian' });
  check(coParent.status === 201 && coParent.body.role === 'guardian', 'invite Carl as guardian', coParent.body);
  const carlAccepts = await as(base, carl)<FamilyRecord>('POST', `/api/family/invites/${await inviteTokenFor(mailbox, carl.email)}/accept/`);
  check(carlAccepts.status === 200 && carlAccepts.body.my_role === 'guardian' && carlAccepts.body.kind === 'dependant', 'Carl is a guardian', carlAccepts.body);

  // The claim link, sent by the guardian; a caregiver-less stranger may not send it.
  const tessEmail = `tess-${randomUUID().slice(0, 8)}@example.com`;
  const sent = await as(base, gail)<{ status: string }>('POST', `/api/family/members/${tessId}/claim-invite/`, { email: tessEmail });
  check(sent.status === 201 && sent.body.status === 'pending', 'claim link sent', sent.body);
  const members = await as(base, gail)<FamilyOverview>('GET', '/api/family/members/');
  const tessLine = members.body.members.find((m) => m.kind === 'dependant' && m.id === tessId);
  check(tessLine?.sign_in === 'invited', "Tess's sign-in is 'invited'", tessLine);
  const token = await claimTokenFor(mailbox, tessEmail);
  const preview = await call<{ patient_first_name: string; email: string }>(base, 'GET', `/api/family/claims/${token}/`);
  check(preview.status === 200 && preview.body.patient_first_name === 'Tess' && preview.body.email === tessEmail, 'claim preview', preview.body);
  const claimed = await call(base, 'POST', `/api/family/claims/${token}/`, { password: 'tess horse battery' });
  check(claimed.status === 201, 'Tess claims her record', claimed.body);
  const twice = await call(base, 'POST', `/api/family/claims/${token}/`, { password: 'tess horse battery' });
  check(twice.status === 404, 'the claim link works once', twice.body);
  const login = await call<{ access: string }>(base, 'POST', '/api/login/', { email: tessEmail, password: 'tess horse battery' });
  check(login.status === 200, 'Tess signs in', login.body);
  const tess: Person = { id: tessId, email: tessEmail, firstName: 'Tess', token: login.body.access };
  const me = await as(base, tess)<{ id: string }>('GET', '/api/profile/');
  check(me.body.id === tessId, "Tess's account keeps her record's id", me.body);

  // Assent: asked at first sign-in; she keeps her guardians' access.
  const asked = await as(base, tess)<{ status: string; proxies: { first_name: string }[] }>('GET', '/api/family/assent/');
  check(asked.body.status === 'pending' && asked.body.proxies.some((p) => p.first_name === 'Gail'), 'Tess is asked', asked.body);
  const kept = await as(base, tess)<{ status: string }>('POST', '/api/family/assent/', { keep_access: true });
  check(kept.body.status === 'given', 'Tess keeps their access', kept.body);
  const afterClaim = await as(base, gail)<FamilyOverview>('GET', '/api/family/members/');
  const signedIn = afterClaim.body.members.find((m) => m.kind === 'dependant' && m.id === tessId);
  check(signedIn?.sign_in === 'signed-in' && signedIn.assent === 'given', "Gail sees Tess signed in, assent given", signedIn);

  // Private: only Tess, as herself, marks it; proxies then do not see it.
  const asProxy = await as(base, gail, tessId)('PATCH', `/api/documents/${visitId}/`, { private: true });
  check(asProxy.status === 403, 'a proxy cannot mark a document private', asProxy.body);
  const marked = await as(base, tess)<{ private: boolean }>('PATCH', `/api/documents/${visitId}/`, { private: true });
  check(marked.status === 200 && marked.body.private === true, 'Tess marks clinic-visit.pdf private', marked.body);
  for (const proxy of [gail, carl]) {
    const list = await as(base, proxy, tessId)<{ filename: string }[]>('GET', '/api/upload/');
    check(list.status === 200 && list.body.map((d) => d.filename).join() === 'school-note.pdf', `${proxy.firstName} no longer lists it`, list.body);
    const link = await as(base, proxy, tessId)('GET', `/api/get-document-download-link/${visitId}/`);
    check(link.status === 404, `${proxy.firstName} cannot download it`, link.body);
  }
  await waitFor("the proxy's summary without the private document", async () => {
    const summary = await as(base, gail, tessId)<{ documents: { document_id: string }[] }[]>('GET', `/api/summary/?user=${tessId}`);
    const ids = summary.body[0]?.documents.map((d) => d.document_id) ?? [];
    return summary.status === 200 && ids.length === 1 && !ids.includes(visitId) ? true : undefined;
  });
  const own = await as(base, tess)<{ filename: string; private: boolean }[]>('GET', '/api/upload/');
  check(own.body.length === 2 && own.body.some((d) => d.filename === 'clinic-visit.pdf' && d.private), 'Tess still sees both', own.body);
  const ownSummary = await as(base, tess)<{ documents: { document_id: string }[] }[]>('GET', `/api/summary/?user=${tessId}`);
  check(ownSummary.body[0]?.documents.some((d) => d.document_id === visitId) === true, "Tess's own summary lists it", ownSummary.body);

  // She changes her mind: her guardians' access ends at once, and Gail is told.
  const declined = await as(base, tess)<{ status: string }>('POST', '/api/family/assent/', { keep_access: false });
  check(declined.body.status === 'declined', 'Tess declines', declined.body);
  const refused = await as(base, gail, tessId)<{ message: string }>('GET', '/api/upload/');
  check(refused.status === 403, "Gail's next request is refused", refused.body);
  const carlRefused = await as(base, carl, tessId)('GET', '/api/upload/');
  check(carlRefused.status === 403, "Carl's next request is refused", carlRefused.body);
  await waitFor('the e-mail to Gail', async () => ((await mailbox.textsTo(gail.email)).some((t) => /Tess has their own sign-in and chose to keep their health record to themself/.test(t)) ? true : undefined));
}

/**
 * Routes that are only ever the caller's own (no X-Patient-Id): naming another person's record is
 * refused (403) to every role, a guardian's too; naming one's own record is the same as no header.
 */
export async function ownOnlyMatrix(base: string, routes: { method: string; path: string; body?: unknown }[], callers: RoleCaller[]): Promise<{ lines: string[]; problems: string[] }> {
  const lines: string[] = [];
  const problems: string[] = [];
  for (const route of routes) {
    const results: string[] = [];
    for (const caller of callers) {
      const own = caller.patient === caller.who.id;
      const path = route.path.replace(/\{(\w+)\}/g, () => randomUUID());
      const response = await fetch(`${base}${path}`, {
        method: route.method,
        headers: { authorization: `Bearer ${caller.who.token}`, 'x-patient-id': caller.patient, ...(route.body ? { 'content-type': 'application/json' } : {}) },
        ...(route.body ? { body: JSON.stringify(route.body) } : {}),
      });
      const text = await response.text();
      results.push(`${caller.name} ${response.status}`);
      if (own && (response.status === 401 || response.status === 403 || response.status >= 500)) problems.push(`${route.method} ${route.path}: ${caller.name} (own record) should be let through, got ${response.status} ${text.slice(0, 160)}`);
      if (!own && response.status !== 403) problems.push(`${route.method} ${route.path}: ${caller.name} should get 403, got ${response.status} ${text.slice(0, 160)}`);
    }
    lines.push(`${route.method} ${route.path} (own only): ${results.join(', ')}`);
  }
  return { lines, problems };
}
