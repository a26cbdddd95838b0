/**
 * The security matrix's declared expectations: one entry per route and method of the gateway's
 * OpenAPI document (the key is "METHOD /api/path/" exactly as the document writes it). The matrix
 * (security-matrix.ts) calls every route as signed out, as a second user and with every forged
 * token, then as the owner with a request built from the owner's real objects, and FAILS when the
 * document has a route without an entry here. Adding a route is one line, for example:
 *
 *   'GET /api/wallet/': ownData(),                                          // the caller's own list
 *   'GET /api/wallet/{cardId}/': ownerObject((o) => ({ path: { cardId: o.cardId } })),
 *
 * (a new kind of owner object is made once in `OwnerObjects` / `makeOwnerObjects`).
 */

import { documentFiles } from '@medfolio/testing';

/** The directory entry of the matrix's local SMART sandbox (security-matrix.e2e-spec.ts writes the directory). */
export const MATRIX_ENDPOINT_ID = 'matrix-sandbox';

/** A SMART Health Link to a documentation address (192.0.2.1), with a well-formed 32-byte key. */
const MATRIX_SHLINK = `shlink:/${Buffer.from(JSON.stringify({ url: 'https://192.0.2.1/manifest', key: 'A'.repeat(43), label: 'Matrix clinic' })).toString('base64url')}`;

/** Someone signed up and signed in through the API. */
export interface Party {
  id: string;
  email: string;
  password: string;
  firstName: string;
  /** An access token of the main sign-in (the owner's is the sign-in the forged tokens name). */
  token: string;
  /** The main sign-in's refresh token (the owner's is rotated by `mainSignInAlive`). */
  refresh: string;
}

/** What the owner has, made through the API before the matrix runs; builders take ids from here. */
export interface OwnerObjects extends Party {
  /** Whether the main sign-in still refreshes (at identity, no propagation delay): no wrong caller ended it. */
  mainSignInAlive(): Promise<boolean>;
  /** A document of the owner's (kept). */
  documentId: string;
  /** A document of the owner's that the DELETE route may delete. */
  documentToDelete: string;
  /** A summary fact of the owner's (kept, may be edited or hidden). */
  factId: string;
  /** A summary fact of the owner's that the DELETE route may delete. */
  factToDelete: string;
  /** The share id of the owner's default link (the public summary routes take it as `user`). */
  shareId: string;
  /** A share link of the owner's (kept, may be renamed) and one the revoke route may revoke. */
  linkId: string;
  linkToRevoke: string;
  /**
   * A (self-attested) provider (Dr John Smith) holding a grant from the owner (he asked through a
   * link with providers_may_see_documents, the owner approved), the grant (revoked last) and a
   * pending request of another provider (Dr Ana Ruiz) the owner may decide on.
   */
  providerToken: string;
  grantId: string;
  requestId: string;
  /** A hospital connection of the owner's (to the matrix's SMART sandbox), which the DELETE route may delete. */
  connectionId: string;
  /** A sign-in at the sandbox the owner started and the sandbox approved: the callback's query, not yet used. */
  connectionCallback(): Promise<Record<string, string>>;
  /** Family: a caregiver's grant on the owner's record (may be changed), a dependant the DELETE route removes (first name 'Remy'), and a pending invitation. */
  familyMemberId: string;
  familyDependantToRemove: string;
  familyInviteId: string;
  /** Family: a dependant of the owner's aged 15 (the claim link may be sent for them). */
  familyTeenId: string;
  /** The owner's latest summary version (read now). */
  summaryVersion(): Promise<number>;
  /** A new sign-in of the owner's, for routes that end or change sign-ins. */
  signIn(): Promise<{ access: string; refresh: string }>;
  /** Calls the product as the owner (for `check`s). */
  call<T = unknown>(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: T }>;
}

/** One request to a route: its path parameters, query, JSON body or multipart form, and (optionally) the owner's token to use. */
export interface RouteRequest {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  form?: () => Promise<FormData>;
  /** The owner's access token for this request (default: the main one); wrong callers never use it. */
  ownerToken?: string;
}

export type RequestBuilder = (owner: OwnerObjects) => RouteRequest | Promise<RouteRequest>;

export interface RouteExpectation {
  /**
   * public: anyone may call it; the answer is the same signed out, as a second user or with a
   *   forged token (a token changes nothing), never a 5xx, never the owner's data.
   * own-data: the caller's own data, named by the token alone (no owner ids to guess): signed out
   *   and forged 401; a second user gets an answer about themselves, never containing the owner's data
   *   (`secondUser` when declared: a role the second user lacks, e.g. 403 for a provider route).
   * owner-object: names an object of the owner's (path, query or body id): signed out and forged
   *   401, a second user 404 (as for an object that does not exist), the owner `owner`.
   */
  kind: 'public' | 'own-data' | 'owner-object';
  /** Status for a signed-out caller (own-data and owner-object). */
  signedOut: number;
  /** Status for every forged token (own-data and owner-object). */
  forged: number;
  /** Status for the second user (owner-object); own-data: when declared, else any answer but 401/403 without the owner's data. */
  secondUser?: number;
  /** Status of the owner's request (own-data and owner-object). */
  owner?: number;
  request: RequestBuilder;
  /**
   * Runs after the wrong callers and before the owner's request, with what they sent: throws when
   * they changed something of the owner's (for routes whose second-user answer is about themselves).
   */
  check?: (owner: OwnerObjects, sent: RouteRequest) => Promise<void>;
  /**
   * Every request of the route comes from its own client address (X-Forwarded-For; the matrix's
   * product trusts one proxy hop): for routes whose per-client limit is below the matrix's calls.
   */
  clientPerRequest?: boolean;
  /** Ends or changes the owner's sign-ins: runs after every other route (with fresh sign-ins). */
  last?: boolean;
}

const none: RequestBuilder = () => ({});

/** Anyone may call it (sign-up, sign-in, health, contact...): the default request has no body (a 400 is fine). */
export const publicRoute = (request: RequestBuilder = none): RouteExpectation => ({ kind: 'public', signedOut: 0, forged: 0, request });

/** The caller's own data, found by the token alone. */
export const ownData = (request: RequestBuilder = none, more: Partial<RouteExpectation> = {}): RouteExpectation => ({
  kind: 'own-data',
  signedOut: 401,
  forged: 401,
  owner: 200,
  request,
  ...more,
});

/** Names an object of the owner's: a second user gets 404, as for an object that does not exist. */
export const ownerObject = (request: RequestBuilder, more: Partial<RouteExpectation> = {}): RouteExpectation => ({
  kind: 'owner-object',
  signedOut: 401,
  forged: 401,
  secondUser: 404,
  owner: 200,
  request,
  ...more,
});

/** The owner's plan is still Free (no wrong caller's checkout or cancel touched it). */
const expectFreePlan = async (o: OwnerObjects) => {
  const plan = await o.call<{ plan?: string }>('GET', '/api/membership/');
  if (plan.status !== 200 || plan.body.plan !== 'free') throw new Error(`the owner's plan changed: ${plan.status} ${JSON.stringify(plan.body)}`);
};
const FREE_CANCEL_STATUS = 404;

const expectStatus = (what: string, reply: { status: number; body: unknown }, status: number) => {
  if (reply.status !== status) throw new Error(`${what}: expected ${status}, got ${reply.status} ${JSON.stringify(reply.body)}`);
};

const png = async (): Promise<FormData> => {
  const sharp = (await import('sharp')).default;
  const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } }).png().toBuffer();
  const form = new FormData();
  form.append('picture', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'me.png');
  return form;
};

const pdf = async (): Promise<FormData> => {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(documentFiles.pdf('matrix'))], { type: 'application/pdf' }), 'matrix.pdf');
  return form;
};

/** A device and pass that do not exist (the wallet answers 401 or 404 for them, to anyone). */
const PASSKIT_PASS = { device: 'matrix-device', passType: 'pass.example.matrix', serial: 'matrix-serial' };

/** A tag of the right shape (43 base64url characters) that binds no link. */
const WRONG_TAG = 'A'.repeat(43);

export const ROUTE_EXPECTATIONS: Record<string, RouteExpectation> = {
  'GET /api/health/': publicRoute(),
  'POST /api/register/': publicRoute(),
  'POST /api/verify-otp/': publicRoute(),
  'POST /api/resend-otp/': publicRoute(),
  'POST /api/login/': publicRoute(),
  'POST /api/login-with-google/': publicRoute(),
  'GET /api/login-with-oidc/providers/': publicRoute(),
  'POST /api/login-with-oidc/{provider}/': publicRoute(() => ({ path: { provider: 'apple' } })),
  // A provider's form POST: the matrix sends no form (its requests are JSON or multipart), so every caller gets the same 400 or 415.
  'POST /api/login-with-oidc/{provider}/callback/': publicRoute(() => ({ path: { provider: 'apple' } })),
  'POST /api/token/refresh/': publicRoute(),
  'POST /api/forgot-password/': publicRoute(),
  'POST /api/reset-password/': publicRoute(),
  // An optional token (bearer-if-sent: it names the sender for priority support; a forged one is 401). No body: 400 to everyone else.
  'POST /api/contact/': ownData(none, { signedOut: 400, owner: 400, clientPerRequest: true }),
  'GET /api/client-config/': publicRoute(),

  'GET /api/profile/': ownData(),
  'PUT /api/profile/': ownData(() => ({ body: { first_name: 'Robin', phone: '+1 202 555 0143' } }), {
    check: async (o) => {
      const me = await o.call<{ first_name: string }>('GET', '/api/profile/');
      if (me.body.first_name !== o.firstName) throw new Error(`the owner's profile changed: ${JSON.stringify(me.body)}`);
    },
  }),
  'POST /api/profile/picture/': ownData(() => ({ form: png })),
  'GET /api/history/': ownData(),
  'POST /api/upload/': ownData(() => ({ form: pdf }), { owner: 201 }),
  'GET /api/upload/': ownData(),
  'DELETE /api/upload/': ownerObject((o) => ({ body: { document_id: o.documentToDelete } })),
  'GET /api/get-document-download-link/{documentId}/': ownerObject((o) => ({ path: { documentId: o.documentId } })),

  // A signed-out caller gets 404 too: a summary's existence is not revealed (a sent token must be valid).
  'GET /api/summary/': ownerObject((o) => ({ query: { user: o.id } }), { signedOut: 404 }),
  // The status the dashboard's badge polls: the caller's own, no content.
  'GET /api/summary/status/': ownData(),
  'POST /api/summary/facts/{factId}/hide/': ownerObject((o) => ({ path: { factId: o.factId }, body: { hidden: true } })),
  'PUT /api/summary/facts/{factId}/': ownerObject((o) => ({ path: { factId: o.factId }, body: { text: 'Latex (hives)' } })),
  'DELETE /api/summary/facts/{factId}/': ownerObject((o) => ({ path: { factId: o.factToDelete } })),
  'POST /api/summary/facts/': ownData(() => ({ body: { section: 'allergies', text: 'Pollen (hay fever)' } })),
  'POST /api/summary/confirm/': ownData(async (o) => ({ body: { version: await o.summaryVersion() } })),

  // Formats of the summary: an optional token, as GET /api/summary/ (the owner's id or a share id).
  'GET /api/summary/fhir/': ownerObject((o) => ({ query: { user: o.id } }), { signedOut: 404 }),
  'GET /api/summary/pdf/': ownerObject((o) => ({ query: { user: o.id } }), { signedOut: 404 }),
  // SMART Health Links and passcode unlock: anyone holding the link. A well-formed wrong tag (404 "This
  // link is not valid.") answers the same to every caller; the default link has no passcode, so the
  // unlock answers a view token to anyone holding the share id (as the summary itself) and counts no attempt.
  'POST /api/summary/shl/': publicRoute((o) => ({ query: { user: o.shareId, tag: WRONG_TAG }, body: { recipient: 'Matrix' } })),
  'GET /api/summary/shl/file/': publicRoute((o) => ({ query: { user: o.shareId, tag: WRONG_TAG, token: `${Math.floor(Date.now() / 1000) + 3600}.${'B'.repeat(43)}` } })),
  'POST /api/summary/unlock/': publicRoute((o) => ({ body: { user: o.shareId, passcode: '0000' } })),

  // Health trends: the caller's own series and timeline, and every observation as CSV.
  'GET /api/trends/': ownData(),
  'GET /api/trends/export.csv': ownData(),
  // Hospital and clinic connections (SMART on FHIR): the directory and a new sign-in are the caller's own;
  // the callback names a state the owner started (another user's answers 400: not a state of theirs);
  // a connection id is the owner's object.
  'GET /api/connections/endpoints/': ownData(() => ({ query: { q: 'matrix' } })),
  'POST /api/connections/': ownData(() => ({ body: { endpoint_id: MATRIX_ENDPOINT_ID } })),
  'GET /api/connections/callback/': ownerObject(async (o) => ({ query: await o.connectionCallback() }), { secondUser: 400 }),
  'GET /api/connections/': ownData(),
  'POST /api/connections/{connectionId}/sync/': ownerObject((o) => ({ path: { connectionId: o.connectionId } }), { owner: 202 }),
  'DELETE /api/connections/{connectionId}/': ownerObject((o) => ({ path: { connectionId: o.connectionId } })),
  // The public keys of the product's private_key_jwt client assertions: EHRs fetch them signed out.
  'GET /api/connections/.well-known/jwks.json': publicRoute(),
  // A clinic's SMART Health Link, received into the caller's own documents. The matrix's link is well formed and names a
  // documentation address (TEST-NET-1), which the receiver refuses before any request: 400 for everyone signed in.
  'POST /api/connections/shl/': ownData(() => ({ body: { shlink: MATRIX_SHLINK } }), { owner: 400 }),

  // Family: the overview and a new family member are the caller's own; members and invitations of the owner's
  // record are 404 to anyone else; inviting to the owner's record is refused (403) to anyone else. An invitation
  // link that is not one (a well-formed wrong token) answers 404 to everyone.
  'GET /api/family/members/': ownData(),
  'POST /api/family/members/': ownData(() => ({ body: { first_name: 'Kit', last_name: 'Matrix', date_of_birth: '2018-02-02' } }), { owner: 201 }),
  'PATCH /api/family/members/{memberId}/': ownerObject((o) => ({ path: { memberId: o.familyMemberId }, body: { role: 'manage' } })),
  // Removing a dependant erases their record: only the guardian (202, accepted: the services delete their parts);
  // anyone else 404. A caregiver with manage is refused (403), and revoking a caregiver answers 200: family.e2e-spec
  // and erasure.e2e-spec.
  'DELETE /api/family/members/{memberId}/': ownerObject((o) => ({ path: { memberId: o.familyDependantToRemove }, body: { confirm_name: 'Remy' } }), { owner: 202 }),
  'POST /api/family/invites/': ownData((o) => ({ body: { patient_id: o.id, email: 'matrix-invitee@example.com', role: 'view' } }), { owner: 201, secondUser: 403, clientPerRequest: true }),
  'DELETE /api/family/invites/{inviteId}/': ownerObject((o) => ({ path: { inviteId: o.familyInviteId } })),
  'GET /api/family/invites/{token}/accept/': publicRoute(() => ({ path: { token: WRONG_TAG } })),
  'POST /api/family/invites/{token}/accept/': ownData(() => ({ path: { token: WRONG_TAG } }), { owner: 404, secondUser: 404 }),
  // A dependant's own sign-in: the claim link for the owner's teen is the owner's to send (anyone else: 404, as no
  // such member); a claim link that is not one answers 404 to everyone; the assent is the caller's own (the owner's
  // record has nobody to decide about: 400 to an answer).
  'POST /api/family/members/{memberId}/claim-invite/': ownerObject((o) => ({ path: { memberId: o.familyTeenId }, body: { email: 'matrix-teen@example.com' } }), { owner: 201, clientPerRequest: true }),
  'GET /api/family/claims/{token}/': publicRoute(() => ({ path: { token: WRONG_TAG } })),
  'POST /api/family/claims/{token}/': publicRoute(() => ({ path: { token: WRONG_TAG }, body: { password: 'matrix horse battery' } })),
  'GET /api/family/assent/': ownData(),
  'POST /api/family/assent/': ownData(() => ({ body: { keep_access: true } }), { owner: 400 }),
  // Private documents: the owner's document; anyone else gets 404 (as for a document that does not exist).
  'PATCH /api/documents/{documentId}/': ownerObject((o) => ({ path: { documentId: o.documentId }, body: { private: false } })),

  // Share links: the caller's own; a link id of the owner's is 404 to anyone else.
  'GET /api/share-links/': ownData(),
  'GET /api/share-links/default/': ownData(),
  'POST /api/share-links/': ownData(() => ({ body: { label: 'Matrix link' } }), { owner: 201 }),
  'PATCH /api/share-links/{linkId}/': ownerObject((o) => ({ path: { linkId: o.linkId }, body: { label: 'Renamed' } }), {
    check: async (o) => {
      const links = await o.call<{ id: string; label: string }[]>('GET', '/api/share-links/');
      if (links.body.find((l) => l.id === o.linkId)?.label !== 'Kept') throw new Error(`the owner's link changed: ${JSON.stringify(links.body)}`);
    },
  }),
  'POST /api/share-links/{linkId}/revoke/': ownerObject((o) => ({ path: { linkId: o.linkToRevoke } })),

  // Wallet passes: the caller's own pass; a second user's settings change only theirs.
  'GET /api/get-pass-url/': ownData(),
  'GET /api/wallet/pass/': ownData(),
  'GET /api/wallet/status/': ownData(),
  'GET /api/wallet/google/': ownData(),
  // The name is hidden until the holder shows it: a second user showing theirs leaves the owner's hidden.
  'PUT /api/wallet/settings/': ownData(() => ({ body: { show_name: true } }), {
    check: async (o) => {
      const pass = await o.call<{ show_name: boolean }>('GET', '/api/wallet/pass/');
      if (pass.body.show_name !== false) throw new Error(`the owner's pass settings changed: ${JSON.stringify(pass.body)}`);
    },
  }),

  // Providers. The license and the provider routes are the provider's (the owner's side is
  // Dr Smith, granted by the owner); a second user is no provider: 404 for the facts, 403 for the
  // lists, 404 for the owner's patient routes. Requests and grants are the patient's.
  'GET /api/medical-license/': ownData((o) => ({ ownerToken: o.providerToken })),
  // The second user's own attempt with Dr Smith's number: not their name (400), never his account.
  'POST /api/medical-license/': ownData((o) => ({ body: { license_number: '1003000126' }, ownerToken: o.providerToken }), { secondUser: 400 }),
  // Disputing Dr Smith's number: the second user's name is not his (400); Dr Smith holds it himself (400: nothing to dispute).
  'POST /api/medical-license/dispute/': ownData((o) => ({ body: { license_number: '1003000126' }, ownerToken: o.providerToken }), { secondUser: 400, owner: 400 }),
  'POST /api/providers/access-requests/': ownerObject((o) => ({ body: { share_id: o.shareId }, ownerToken: o.providerToken }), { secondUser: 403 }),
  'GET /api/providers/access/': ownData(),
  'POST /api/providers/access-requests/{requestId}/decision/': ownerObject((o) => ({ path: { requestId: o.requestId }, body: { decision: 'approve', duration: 'day' } })),
  // Last: the provider routes above use the grant (a fresh sign-in: a password change ends the others).
  'DELETE /api/providers/grants/{grantId}/': ownerObject(async (o) => ({ path: { grantId: o.grantId }, ownerToken: (await o.signIn()).access }), { last: true }),
  'GET /api/providers/patients/': ownData((o) => ({ ownerToken: o.providerToken }), { secondUser: 403 }),
  'GET /api/providers/patients/{patientId}/documents/': ownerObject((o) => ({ path: { patientId: o.id }, ownerToken: o.providerToken })),
  'GET /api/providers/patients/{patientId}/documents/{documentId}/download-link/': ownerObject((o) => ({
    path: { patientId: o.id, documentId: o.documentId },
    ownerToken: o.providerToken,
  })),
  'GET /api/providers/patients/{patientId}/summary/': ownerObject((o) => ({ path: { patientId: o.id }, ownerToken: o.providerToken })),
  'GET /api/providers/patients/{patientId}/summary/fhir/': ownerObject((o) => ({ path: { patientId: o.id }, ownerToken: o.providerToken })),

  // Billing: prices are public; the plan, checkout, cancel and referral are the caller's own
  // (a second user's checkout or cancel is about their own plan, never the owner's: checked).
  // Apple Wallet's web service and Stripe's webhook: no bearer token counts there (ApplePass and the
  // signature decide), so every caller gets the same answer for a pass and a signature that are not real.
  'POST /api/passkit/v1/devices/{device}/registrations/{passType}/{serial}': publicRoute(() => ({ path: PASSKIT_PASS, body: { pushToken: 'matrix' } })),
  'DELETE /api/passkit/v1/devices/{device}/registrations/{passType}/{serial}': publicRoute(() => ({ path: PASSKIT_PASS })),
  'GET /api/passkit/v1/devices/{device}/registrations/{passType}': publicRoute(() => ({ path: { device: PASSKIT_PASS.device, passType: PASSKIT_PASS.passType } })),
  'GET /api/passkit/v1/passes/{passType}/{serial}': publicRoute(() => ({ path: { passType: PASSKIT_PASS.passType, serial: PASSKIT_PASS.serial } })),
  'POST /api/passkit/v1/log': publicRoute(() => ({ body: { logs: ['matrix'] } })),
  'POST /api/stripe/webhook/': publicRoute(() => ({ body: { id: 'evt_matrix', type: 'invoice.paid' } })),
  'GET /api/plans/': publicRoute(),
  'GET /api/membership/': ownData(),
  'POST /api/stripe/checkout/': ownData(() => ({ body: { price_id: 'price_basic_monthly', tier: 'basic', mode: 'monthly' } }), {
    check: async (o) => expectFreePlan(o),
  }),
  // The owner has no paid plan: cancelling is refused, for the owner as for anyone on Free.
  'POST /api/membership/cancel/': ownData(() => ({}), { owner: FREE_CANCEL_STATUS, check: async (o) => expectFreePlan(o) }),
  'GET /api/referral/': ownData(),
  // 10 e-mails an hour per client, fewer than the matrix's 16 calls: each call from its own address.
  'POST /api/referral/invite/': ownData(() => ({ body: { email: 'friend-of-the-matrix@example.com' } }), { clientPerRequest: true }),
  // Not in the document (so not here): POST /api/stripe/webhook/, public, authenticated by Stripe's signature.

  // Sign-out needs no valid access token (an expired one must not stop it): a forged one is ignored
  // and ends nothing (it names the owner's sign-in), a second user ends only their own.
  'POST /api/logout/': ownData(async (o) => ({ body: {}, ownerToken: (await o.signIn()).access }), {
    signedOut: 200,
    forged: 200,
    last: true,
    check: async (o) => {
      if (!(await o.mainSignInAlive())) throw new Error("a wrong caller's sign-out ended the owner's sign-in");
    },
  }),
  // A second user cannot change the owner's password with the owner's old one (it checks their own).
  'PUT /api/change/password/': ownData(
    async (o) => ({ body: { old_password: o.password, new_password: o.password }, ownerToken: (await o.signIn()).access }),
    {
      last: true,
      check: async (o) => expectStatus("the owner's sign-in with the unchanged password", await o.call('POST', '/api/login/', { email: o.email, password: o.password }), 200),
    },
  ),
};
