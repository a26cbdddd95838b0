import { randomUUID } from 'node:crypto';
import type { HistoryPage, Profile, TokenPair } from '@medfolio/contracts';
import { waitFor } from './processes';

export interface Reply<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export async function call<T = unknown>(base: string, method: string, path: string, body?: unknown, token?: string, extraHeaders: Record<string, string> = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers['authorization'] = `Bearer ${token}`;
  const response = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

/** Where the e-mails of a run can be read: the dev mailbox (embedded) or a real SMTP server. */
export interface Mailbox {
  /** Messages to `to` as "subject, blank line, text body", newest first. */
  textsTo(to: string): Promise<string[]>;
}

export async function codeFor(mailbox: Mailbox, to: string, previous?: string): Promise<string> {
  return waitFor(`a verification code for ${to}`, async () => {
    for (const text of await mailbox.textsTo(to)) {
      const code = /\b(\d{4})\b/.exec(text)?.[1];
      if (code && code !== previous) return code;
      if (code) return undefined;
    }
    return undefined;
  });
}

export async function resetLinkFor(mailbox: Mailbox, to: string): Promise<{ email: string; token: string }> {
  return waitFor(`a reset link for ${to}`, async () => {
    for (const text of await mailbox.textsTo(to)) {
      const match = /\/reset-password\/([^/\s]+)\/([A-Za-z0-9_-]{43})/.exec(text);
      if (match) return { email: decodeURIComponent(match[1]!), token: match[2]! };
    }
    return undefined;
  });
}

/**
 * The whole account journey over HTTP, as the web app makes it: sign up, read the code, verify,
 * sign in, read and edit the profile, change the password, sign out, sign in with the new one,
 * refresh, forgot and reset the password, and see it all in the access history.
 */
export async function accountJourney(base: string, mailbox: Mailbox): Promise<void> {
  const email = `patient-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'correct horse battery';
  const expectStatus = (reply: Reply, status: number, what: string) => {
    if (reply.status !== status) throw new Error(`${what}: expected ${status}, got ${reply.status} ${JSON.stringify(reply.body)}`);
  };

  const registered = await call<{ message: string }>(base, 'POST', '/api/register/', {
    first_name: 'Ana',
    last_name: '',
    phone: '+1 202 555 0143',
    email,
    password,
    date_of_birth: '1990-04-01',
  });
  expectStatus(registered, 201, 'register');

  const early = await call<{ message: string }>(base, 'POST', '/api/login/', { email, password });
  expectStatus(early, 403, 'login before verification');

  const code = await codeFor(mailbox, email);
  expectStatus(await call(base, 'POST', '/api/verify-otp/', { email, otp: code }), 200, 'verify');

  const login = await call<TokenPair>(base, 'POST', '/api/login/', { email: email.toUpperCase(), password });
  expectStatus(login, 200, 'login');
  const { access, refresh } = login.body;

  // Each token in its own place only: a refresh token is no access token.
  expectStatus(await call(base, 'GET', '/api/profile/', undefined, refresh), 401, 'refresh token used as an access token');
  expectStatus(await call(base, 'POST', '/api/token/refresh/', { refresh: access }), 401, 'access token used as a refresh token');

  // The welcome e-mail follows verification (identity.user.verified.v1 → notifications).
  await waitFor('the welcome e-mail', async () => ((await mailbox.textsTo(email)).some((t) => /welcome/i.test(t)) ? true : undefined));

  const profile = await call<Profile>(base, 'GET', '/api/profile/', undefined, access);
  expectStatus(profile, 200, 'profile');
  if (profile.body.email !== email || profile.body.first_name !== 'Ana' || !profile.body.email_verified) throw new Error(`profile: ${JSON.stringify(profile.body)}`);

  const edited = await call<Profile>(base, 'PUT', '/api/profile/', { first_name: 'Anna', last_name: 'Smith', phone: '+1 202 555 0199' }, access);
  expectStatus(edited, 200, 'edit profile');
  if (edited.body.last_name !== 'Smith') throw new Error('profile not changed');

  // A profile picture: uploaded as multipart, checked by content, stored 400x400, linked from the profile.
  const sharp = (await import('sharp')).default;
  const jpeg = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#2a6f97' } }).jpeg().toBuffer();
  const form = new FormData();
  form.append('picture', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'me.jpg');
  const uploaded = await fetch(`${base}/api/profile/picture/`, { method: 'POST', body: form, headers: { authorization: `Bearer ${access}` } });
  const withPicture = (await uploaded.json()) as Profile;
  if (uploaded.status !== 200 || !withPicture.profile_picture) throw new Error(`picture upload: ${uploaded.status} ${JSON.stringify(withPicture)}`);
  const pictureUrl = new URL(withPicture.profile_picture, base).toString();
  const picture = await fetch(pictureUrl);
  const meta = await sharp(Buffer.from(await picture.arrayBuffer())).metadata();
  if (picture.status !== 200 || meta.width !== 400 || meta.height !== 400) throw new Error(`picture: ${picture.status} ${meta.width}x${meta.height}`);
  const notAnImage = new FormData();
  notAnImage.append('picture', new Blob(['<html><script>alert(1)</script></html>'], { type: 'image/png' }), 'evil.png');
  const refused = await fetch(`${base}/api/profile/picture/`, { method: 'POST', body: notAnImage, headers: { authorization: `Bearer ${access}` } });
  if (refused.status !== 415) throw new Error(`a non-image must be refused with 415, got ${refused.status}`);
  // One picture per upload: 1,000 `picture` parts are refused, not resolved by taking the first.
  const many = new FormData();
  for (let i = 0; i < 1000; i += 1) many.append('picture', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), `me${i}.jpg`);
  const tooMany = await fetch(`${base}/api/profile/picture/`, { method: 'POST', body: many, headers: { authorization: `Bearer ${access}` } });
  const tooManyBody = (await tooMany.json()) as { code?: string };
  if (tooMany.status !== 400 || tooManyBody.code !== 'VALIDATION_FAILED') throw new Error(`1,000 picture parts must be refused with 400, got ${tooMany.status} ${JSON.stringify(tooManyBody)}`);
  const unchanged = await call<Profile>(base, 'GET', '/api/profile/', undefined, access);
  if (new URL(unchanged.body.profile_picture ?? '', base).pathname !== new URL(pictureUrl).pathname) throw new Error('a refused upload must leave the picture as it was');

  // A revoked sign-in's access tokens stop at once (within a second), not when they expire.
  const refusedWithinASecond = async (token: string, what: string) => {
    const deadline = Date.now() + 1000;
    for (;;) {
      const reply = await call(base, 'GET', '/api/profile/', undefined, token);
      if (reply.status === 401) return;
      if (Date.now() > deadline) throw new Error(`${what}: the access token still worked after a second (${reply.status})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const elsewhere = await call<TokenPair>(base, 'POST', '/api/login/', { email, password });
  expectStatus(elsewhere, 200, 'a second sign-in');

  const wrongOld = await call<{ message: string }>(base, 'PUT', '/api/change/password/', { old_password: 'not my password', new_password: 'new pass 1234' }, access);
  expectStatus(wrongOld, 400, 'change password with a wrong old one');

  const changed = await call<{ detail: string }>(base, 'PUT', '/api/change/password/', { old_password: password, new_password: 'new pass 1234' }, access);
  expectStatus(changed, 200, 'change password');
  // Effective before the answer on the gateway that served it, as a sign-out is.
  expectStatus(await call(base, 'GET', '/api/profile/', undefined, elsewhere.body.access), 401, 'the other sign-in right after a password change');
  expectStatus(await call(base, 'GET', '/api/profile/', undefined, access), 200, 'the sign-in that changed the password goes on');

  const rotated = await call<TokenPair>(base, 'POST', '/api/token/refresh/', { refresh });
  expectStatus(rotated, 200, 'refresh');
  // Used twice (the products under test run with REFRESH_REUSE_GRACE_SECONDS=0): theft, the whole sign-in ends.
  expectStatus(await call(base, 'POST', '/api/token/refresh/', { refresh }), 401, 'reuse of a rotated refresh token');
  await refusedWithinASecond(rotated.body.access, 'the access token after its refresh token was used twice');
  expectStatus(await call(base, 'POST', '/api/token/refresh/', { refresh: rotated.body.refresh }), 401, 'refresh after reuse');

  const other = await call<TokenPair>(base, 'POST', '/api/login/', { email, password: 'new pass 1234' });
  expectStatus(other, 200, 'sign in again');
  const loggedOut = await call<Record<string, unknown>>(base, 'POST', '/api/logout/', { refresh: other.body.refresh }, other.body.access);
  expectStatus(loggedOut, 200, 'logout');
  if (JSON.stringify(loggedOut.body) !== JSON.stringify({ message: 'You are signed out.' })) throw new Error(`logout answered ${JSON.stringify(loggedOut.body)}`);
  // Effective before the answer (it still read the profile for 9-24 ms, 14 tries in 15): the very next request is refused, every time.
  expectStatus(await call(base, 'GET', '/api/profile/', undefined, other.body.access), 401, 'the access token right after logout');
  for (let i = 0; i < 5; i += 1) {
    const session = await call<TokenPair>(base, 'POST', '/api/login/', { email, password: 'new pass 1234' });
    expectStatus(session, 200, 'sign in to sign out');
    expectStatus(await call(base, 'POST', '/api/logout/', {}, session.body.access), 200, 'logout by the access token alone');
    expectStatus(await call(base, 'GET', '/api/profile/', undefined, session.body.access), 401, `the access token right after logout (try ${i + 1})`);
  }
  expectStatus(await call(base, 'POST', '/api/token/refresh/', { refresh: other.body.refresh }), 401, 'refresh after logout');
  expectStatus(await call(base, 'POST', '/api/login/', { email, password }), 401, 'login with the old password');
  const again = await call<TokenPair>(base, 'POST', '/api/login/', { email, password: 'new pass 1234' });
  expectStatus(again, 200, 'login with the new password');

  const forgot = await call<{ token: unknown }>(base, 'POST', '/api/forgot-password/', { email });
  expectStatus(forgot, 200, 'forgot password');
  if (forgot.body.token !== null) throw new Error('forgot-password must not return the secret');
  const link = await resetLinkFor(mailbox, email);
  expectStatus(await call(base, 'POST', '/api/reset-password/', { email: link.email, token: link.token, password: 'reset pass 5678' }), 200, 'reset');
  expectStatus(await call(base, 'POST', '/api/token/refresh/', { refresh: again.body.refresh }), 401, 'sessions end after a reset');
  expectStatus(await call(base, 'GET', '/api/profile/', undefined, again.body.access), 401, 'the access token right after a password reset');
  const final = await call<TokenPair>(base, 'POST', '/api/login/', { email, password: 'reset pass 5678' });
  expectStatus(final, 200, 'login after reset');

  const history = await waitFor('the history of the journey', async () => {
    const reply = await call<HistoryPage>(base, 'GET', '/api/history/?page_size=100', undefined, final.body.access);
    const actions = reply.body.results?.map((r) => r.action) ?? [];
    return ['login', 'profile.read', 'profile.update', 'password.change', 'password.reset'].every((a) => actions.includes(a)) ? reply.body : undefined;
  });
  if (!history.results.some((r) => r.action === 'login' && r.who === 'you')) throw new Error('history lacks the sign-ins');
}
