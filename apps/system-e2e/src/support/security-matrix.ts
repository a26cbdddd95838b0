import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { AuthorizeReply, ConnectionView, PatientAccessReply, RequestAccessReply, ShareLinkItem, SummaryItem, UploadReply } from '@medfolio/contracts';
import { documentFiles } from '@medfolio/testing';
import { uploadFiles } from './documents-journey';
import { forgedTokens } from './forged-tokens';
import { call, codeFor, type Mailbox } from './journey';
import { waitFor } from './processes';
import { MATRIX_ENDPOINT_ID, ROUTE_EXPECTATIONS, type OwnerObjects, type Party, type RouteExpectation, type RouteRequest } from './route-expectations';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

interface OpenApiOperation {
  security?: Record<string, string[]>[];
}
export interface OpenApiDocument {
  paths: Record<string, Partial<Record<(typeof METHODS)[number], OpenApiOperation>>>;
}

/** "METHOD /path/" for every operation of the document, in its order. */
export function routesOf(document: OpenApiDocument): { key: string; method: string; path: string; bearer: boolean }[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    METHODS.filter((m) => operations[m]).map((m) => ({
      key: `${m.toUpperCase()} ${path}`,
      method: m.toUpperCase(),
      path,
      bearer: (operations[m]!.security ?? []).some((s) => 'bearer' in s),
    })),
  );
}

/** Routes of the document without a declared expectation, and declared routes the document does not have. */
export function undeclared(document: OpenApiDocument, table = ROUTE_EXPECTATIONS): { missing: string[]; stale: string[] } {
  const keys = routesOf(document).map((r) => r.key);
  return { missing: keys.filter((k) => !table[k]), stale: Object.keys(table).filter((k) => !keys.includes(k)) };
}

async function signUp(base: string, mailbox: Mailbox, firstName: string, password: string): Promise<Party> {
  const email = `${firstName.toLowerCase()}@example.com`;
  const registered = await call(base, 'POST', '/api/register/', { first_name: firstName, phone: '+1 202 555 0143', email, password, date_of_birth: '1984-03-03' });
  if (registered.status !== 201) throw new Error(`register ${firstName}: ${registered.status} ${JSON.stringify(registered.body)}`);
  await call(base, 'POST', '/api/verify-otp/', { email, otp: await codeFor(mailbox, email) });
  const login = await call<{ access: string; refresh: string }>(base, 'POST', '/api/login/', { email, password });
  if (login.status !== 200) throw new Error(`login ${firstName}: ${login.status} ${JSON.stringify(login.body)}`);
  const me = await call<{ id: string }>(base, 'GET', '/api/profile/', undefined, login.body.access);
  return { id: me.body.id, email, password, firstName, token: login.body.access, refresh: login.body.refresh };
}

/** The invitation link's token from the newest family-invite e-mail to `to`. */
async function familyInviteToken(mailbox: Mailbox, to: string): Promise<string> {
  return waitFor(`a family invitation for ${to}`, async () => {
    for (const text of await mailbox.textsTo(to)) {
      const token = /\/family\/invite\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];
      if (token) return token;
    }
    return undefined;
  });
}

/** A verified provider (the registry stand-in's record for `npi` carries `name`): the access token after verification (with the role). */
async function verifiedProvider(base: string, mailbox: Mailbox, name: string, npi: string): Promise<string> {
  const email = `${name.split(' ')[0]!.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'provider horse battery';
  const registered = await call(base, 'POST', '/api/register/', { first_name: name, phone: '+1 202 555 0143', email, password, date_of_birth: '1975-05-05' });
  if (registered.status !== 201) throw new Error(`register ${name}: ${registered.status} ${JSON.stringify(registered.body)}`);
  await call(base, 'POST', '/api/verify-otp/', { email, otp: await codeFor(mailbox, email) });
  const login = await call<{ access: string; refresh: string }>(base, 'POST', '/api/login/', { email, password });
  const verified = await call(base, 'POST', '/api/medical-license/', { license_number: npi }, login.body.access);
  if (verified.status !== 200) throw new Error(`verify ${name}: ${verified.status} ${JSON.stringify(verified.body)}`);
  // The role reaches the next access token.
  const refreshed = await call<{ access: string }>(base, 'POST', '/api/token/refresh/', { refresh: login.body.refresh });
  if (refreshed.status !== 200) throw new Error(`refresh ${name}: ${refreshed.status} ${JSON.stringify(refreshed.body)}`);
  return refreshed.body.access;
}

/**
 * The owner with a document to keep, one to delete, a fact to keep and one to delete, share links
 * (the default, one to keep, one to revoke, one pre-approving verified providers), a provider granted
 * through it and another provider's pending request, all made through the API.
 */
async function makeOwnerObjects(base: string, mailbox: Mailbox, owner: Party): Promise<OwnerObjects> {
  const as = <T>(method: string, path: string, body?: unknown, token = owner.token) => call<T>(base, method, path, body, token);
  const upload = await uploadFiles(base, owner.token, [
    { name: 'kept.pdf', data: documentFiles.pdf('kept'), type: 'application/pdf' },
    { name: 'deleted.pdf', data: documentFiles.pdf('deleted'), type: 'application/pdf' },
  ]);
  const documents = (upload.body as UploadReply).documents ?? [];
  if (upload.status !== 201 || documents.length !== 2) throw new Error(`the owner's upload: ${upload.status} ${JSON.stringify(upload.body)}`);
  const addFact = async (text: string) => {
    const reply = await as<SummaryItem>('POST', '/api/summary/facts/', { section: 'allergies', text });
    const fact = reply.body.sections?.flatMap((s) => s.facts).find((f) => f.text === text);
    if (reply.status !== 200 || !fact) throw new Error(`the owner's fact: ${reply.status} ${JSON.stringify(reply.body)}`);
    return fact.id;
  };
  const link = async (method: string, path: string, body?: unknown) => {
    const reply = await as<ShareLinkItem>(method, path, body);
    if (reply.status !== 200 && reply.status !== 201) throw new Error(`the owner's link: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  const defaultLink = await link('GET', '/api/share-links/default/');
  const kept = await link('POST', '/api/share-links/', { label: 'Kept' });
  const toRevoke = await link('POST', '/api/share-links/', { label: 'To revoke' });
  const open = await link('POST', '/api/share-links/', { label: 'Verified doctors', providers_may_see_documents: true });
  const smith = await verifiedProvider(base, mailbox, 'John Smith', '1003000126');
  // Self-attested (no operator review here): the pre-approving link makes him ask; the owner approves.
  const smithAsked = await as<RequestAccessReply>('POST', '/api/providers/access-requests/', { share_id: open.share_id }, smith);
  if (smithAsked.body.state !== 'pending') throw new Error(`the provider's request: ${smithAsked.status} ${JSON.stringify(smithAsked.body)}`);
  const smithRequest = (await as<PatientAccessReply>('GET', '/api/providers/access/')).body.requests?.find((r) => r.provider.npi === '1003000126');
  const granted = smithRequest && (await as<PatientAccessReply>('POST', `/api/providers/access-requests/${smithRequest.id}/decision/`, { decision: 'approve', duration: 'month' }));
  if (granted?.status !== 200) throw new Error(`the provider's grant: ${granted?.status} ${JSON.stringify(granted?.body ?? smithRequest)}`);
  const ruiz = await verifiedProvider(base, mailbox, 'Ana Ruiz', '1234567893');
  const asked = await as<RequestAccessReply>('POST', '/api/providers/access-requests/', { share_id: defaultLink.share_id }, ruiz);
  if (asked.body.state !== 'pending') throw new Error(`the provider's request: ${asked.status} ${JSON.stringify(asked.body)}`);
  const access = await as<PatientAccessReply>('GET', '/api/providers/access/');
  const grantId = access.body.grants?.find((g) => g.provider.npi === '1003000126')?.id;
  const requestId = access.body.requests?.find((r) => r.provider.npi === '1234567893')?.id;
  if (!grantId || !requestId) throw new Error(`the owner's grant and request: ${access.status} ${JSON.stringify(access.body)}`);

  // A sign-in at the local SMART sandbox: started through the API, approved there (the sandbox
  // auto-approves and redirects back), its code and state for the callback.
  const connectionCallback = async (): Promise<Record<string, string>> => {
    const started = await as<AuthorizeReply>('POST', '/api/connections/', { endpoint_id: MATRIX_ENDPOINT_ID });
    if (started.status !== 200) throw new Error(`the owner's connection start: ${started.status} ${JSON.stringify(started.body)}`);
    const back = (await fetch(started.body.authorize_url, { redirect: 'manual' })).headers.get('location');
    const query = back ? Object.fromEntries(new URL(back).searchParams) : {};
    if (!query['code'] || !query['state']) throw new Error(`the sandbox's redirect: ${back}`);
    return { code: query['code'], state: query['state'] };
  };
  const connected = await as<ConnectionView>('GET', `/api/connections/callback/?${new URLSearchParams(await connectionCallback()).toString()}`);
  if (connected.status !== 200) throw new Error(`the owner's connection: ${connected.status} ${JSON.stringify(connected.body)}`);

  // Family: a caregiver accepts an invitation to the owner's record, another invitation stays pending, and a dependant is added (to be removed).
  const inviteAndAccept = async (name: string): Promise<string> => {
    const carer = await signUp(base, mailbox, `${name}${randomUUID().slice(0, 6)}`, 'carer horse battery');
    const invited = await as<{ id: string }>('POST', '/api/family/invites/', { patient_id: owner.id, email: carer.email, role: 'view' });
    if (invited.status !== 201) throw new Error(`the owner's invitation: ${invited.status} ${JSON.stringify(invited.body)}`);
    const token = await familyInviteToken(mailbox, carer.email);
    const accepted = await as('POST', `/api/family/invites/${token}/accept/`, undefined, carer.token);
    if (accepted.status !== 200) throw new Error(`the caregiver's acceptance: ${accepted.status} ${JSON.stringify(accepted.body)}`);
    const members = await as<{ members: { id: string; email: string | null }[] }>('GET', '/api/family/members/');
    const member = members.body.members.find((m) => m.email === carer.email);
    if (!member) throw new Error(`the owner's members: ${JSON.stringify(members.body)}`);
    return member.id;
  };
  const familyMemberId = await inviteAndAccept('Carer');
  const removable = await as<{ patient_id: string }>('POST', '/api/family/members/', { first_name: 'Remy', last_name: 'Matrix', date_of_birth: '2017-04-04' });
  if (removable.status !== 201) throw new Error(`the owner's dependant: ${removable.status} ${JSON.stringify(removable.body)}`);
  const pending = await as<{ id: string }>('POST', '/api/family/invites/', { patient_id: owner.id, email: 'matrix-pending@example.com', role: 'manage' });
  if (pending.status !== 201) throw new Error(`the owner's pending invitation: ${pending.status} ${JSON.stringify(pending.body)}`);
  const teenBorn = `${new Date().getUTCFullYear() - 15}-01-01`;
  const teen = await as<{ patient_id: string }>('POST', '/api/family/members/', { first_name: 'Tia', last_name: 'Matrix', date_of_birth: teenBorn });
  if (teen.status !== 201) throw new Error(`the owner's teen: ${teen.status} ${JSON.stringify(teen.body)}`);

  const objects: OwnerObjects = {
    ...owner,
    familyMemberId,
    familyDependantToRemove: removable.body.patient_id,
    familyInviteId: pending.body.id,
    familyTeenId: teen.body.patient_id,
    connectionId: connected.body.id,
    connectionCallback,
    shareId: defaultLink.share_id,
    linkId: kept.id,
    linkToRevoke: toRevoke.id,
    providerToken: smith,
    grantId,
    requestId,
    mainSignInAlive: async () => {
      const reply = await as<{ refresh: string }>('POST', '/api/token/refresh/', { refresh: objects.refresh }, '');
      if (reply.status === 200) objects.refresh = reply.body.refresh;
      return reply.status === 200;
    },
    documentId: documents[0]!.id,
    documentToDelete: documents[1]!.id,
    factId: await addFact(`Latex ${owner.firstName}`),
    factToDelete: await addFact(`Penicillin ${owner.firstName}`),
    summaryVersion: async () => {
      const reply = await as<SummaryItem[]>('GET', `/api/summary/?user=${owner.id}`);
      const version = reply.body[0]?.version;
      if (reply.status !== 200 || version === undefined) throw new Error(`the owner's summary: ${reply.status} ${JSON.stringify(reply.body)}`);
      return version;
    },
    signIn: async () => {
      const reply = await as<{ access: string; refresh: string }>('POST', '/api/login/', { email: owner.email, password: owner.password }, '');
      if (reply.status !== 200) throw new Error(`the owner's sign-in: ${reply.status} ${JSON.stringify(reply.body)}`);
      return reply.body;
    },
    call: (method, path, body, token) => as(method, path, body, token ?? owner.token),
  };
  return objects;
}

/** The URL path with the request's path parameters and query filled in; throws on a parameter left unnamed. */
function urlOf(path: string, request: RouteRequest): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = request.path?.[name];
    if (value === undefined) throw new Error(`the request names no value for the path parameter {${name}}`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams(request.query ?? {}).toString();
  return query ? `${filled}?${query}` : filled;
}

let clients = 0;
/** A new client address (TEST-NET-2 and -3) for routes declared `clientPerRequest`. */
const nextClient = () => {
  clients += 1;
  return `${clients % 2 ? '198.51.100' : '203.0.113'}.${(clients >> 1) % 250 + 1}`;
};

async function send(base: string, method: string, url: string, request: RouteRequest, token?: string, client?: string): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = {};
  if (token) headers['authorization'] = `Bearer ${token}`;
  if (client) headers['x-forwarded-for'] = client;
  let body: string | FormData | undefined;
  if (request.form) body = await request.form();
  else if (request.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.body);
  }
  const response = await fetch(`${base}${url}`, { method, headers, body });
  return { status: response.status, text: await response.text() };
}

export interface MatrixResult {
  /** One line per route: what each caller got. */
  lines: string[];
  /** Every broken expectation, named; empty when the product keeps them all. */
  problems: string[];
  /** Requests made. */
  requests: number;
}

/**
 * Calls every route of the product's OpenAPI document as signed out, as a second user, with every
 * forged token (each claiming the owner's id), then as the owner; checks each answer against the
 * declared expectation and that no wrong caller's answer contains any of the owner's ids, e-mail or names.
 */
export async function securityMatrix(base: string, mailbox: Mailbox, dataDir: string, document: OpenApiDocument): Promise<MatrixResult> {
  const run = randomUUID().slice(0, 8);
  const owner = await makeOwnerObjects(base, mailbox, await signUp(base, mailbox, `Owner${run}`, 'owner horse battery'));
  const second = await signUp(base, mailbox, `Second${run}`, 'second horse battery');
  const signInSecond = async () => (await call<{ access: string }>(base, 'POST', '/api/login/', { email: second.email, password: second.password })).body.access;
  const forged = await forgedTokens(dataDir, owner.id, decodeJwt(owner.token)['sid'] as string);
  const secrets = [owner.id, owner.email, owner.firstName, owner.documentId, owner.documentToDelete, owner.factId, owner.factToDelete];
  secrets.push(owner.shareId, owner.linkId, owner.linkToRevoke, owner.grantId, owner.requestId, owner.connectionId, owner.familyMemberId, owner.familyDependantToRemove, owner.familyInviteId, owner.familyTeenId);
  const leaked = (text: string) => secrets.filter((s) => text.toLowerCase().includes(s.toLowerCase()));

  const problems: string[] = [];
  const lines: string[] = [];
  let requests = 0;
  const routes = routesOf(document);
  const ordered = [...routes.filter((r) => !ROUTE_EXPECTATIONS[r.key]?.last), ...routes.filter((r) => ROUTE_EXPECTATIONS[r.key]?.last)];

  for (const route of ordered) {
    const expectation: RouteExpectation | undefined = ROUTE_EXPECTATIONS[route.key];
    if (!expectation) continue; // reported by undeclared()
    const problem = (text: string) => problems.push(`${route.key}: ${text}`);
    if ((expectation.kind === 'public') === route.bearer)
      problem(expectation.kind === 'public' ? 'declared public, but the document says it needs a bearer token' : `declared ${expectation.kind}, but the document does not say it needs a bearer token`);
    try {
      const sent = await expectation.request(owner);
      const url = urlOf(route.path, sent);
      const secondToken = expectation.last ? await signInSecond() : second.token;
      const forgedNames = expectation.kind === 'public' ? Object.keys(forged).slice(0, 1) : Object.keys(forged);
      const client = () => (expectation.clientPerRequest ? nextClient() : undefined);
      const answers: [string, { status: number; text: string }][] = [['signed out', await send(base, route.method, url, sent, undefined, client())]];
      answers.push(['second user', await send(base, route.method, url, sent, secondToken, client())]);
      for (const name of forgedNames) answers.push([`forged (${name})`, await send(base, route.method, url, sent, forged[name], client())]);
      requests += answers.length;

      for (const [who, answer] of answers) {
        const found = leaked(answer.text);
        if (found.length) problem(`${who} got the owner's data (${found.length} value(s)) in a ${answer.status}`);
        if (answer.status >= 500 && !(route.key === 'GET /api/health/' && answer.status === 503)) problem(`${who} got ${answer.status}`);
      }
      const statusOf = (who: string) => answers.filter(([w]) => w === who || w.startsWith(`${who} (`)).map(([, a]) => a.status);
      if (expectation.kind === 'public') {
        const statuses = new Set(answers.map(([, a]) => a.status));
        if (statuses.size !== 1) problem(`a token changed the answer of a public route: ${answers.map(([w, a]) => `${w} ${a.status}`).join(', ')}`);
        if (statuses.has(401) || statuses.has(403)) problem(`a public route refused: ${[...statuses].join(', ')}`);
      } else {
        if (statusOf('signed out')[0] !== expectation.signedOut) problem(`signed out: expected ${expectation.signedOut}, got ${statusOf('signed out')[0]}`);
        const wrongForged = answers.filter(([w, a]) => w.startsWith('forged') && a.status !== expectation.forged);
        for (const [who, a] of wrongForged) problem(`${who}: expected ${expectation.forged}, got ${a.status}`);
        const secondStatus = statusOf('second user')[0]!;
        if (expectation.kind === 'owner-object' && secondStatus !== expectation.secondUser) problem(`second user: expected ${expectation.secondUser}, got ${secondStatus}`);
        if (expectation.kind === 'own-data' && expectation.secondUser !== undefined) {
          if (secondStatus !== expectation.secondUser) problem(`second user: expected ${expectation.secondUser}, got ${secondStatus}`);
        } else if (expectation.kind === 'own-data' && (secondStatus === 401 || secondStatus === 403)) problem(`second user refused on their own data: ${secondStatus}`);
      }

      let ownerStatus: number | undefined;
      if (expectation.kind !== 'public') {
        if (expectation.check) await expectation.check(owner, sent);
        // The owner's request, built again (a sign-in a wrong caller may have touched is not reused).
        const mine = await expectation.request(owner);
        const reply = await send(base, route.method, urlOf(route.path, mine), mine, mine.ownerToken ?? owner.token, client());
        requests += 1;
        ownerStatus = reply.status;
        if (reply.status !== expectation.owner) problem(`the owner's own request: expected ${expectation.owner}, got ${reply.status} ${reply.text.slice(0, 200)}`);
      }
      const forgedStatuses = [...new Set(statusOf('forged'))].join('/');
      lines.push(`${route.key} [${expectation.kind}]: signed out ${statusOf('signed out')[0]}, second user ${statusOf('second user')[0]}, forged ${forgedStatuses} x${forgedNames.length}${ownerStatus ? `, owner ${ownerStatus}` : ''}`);
    } catch (error) {
      problem(`could not be exercised: ${(error as Error).message}`);
    }
  }
  return { lines, problems, requests };
}
