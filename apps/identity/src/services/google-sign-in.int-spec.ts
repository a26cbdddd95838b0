import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { DomainError } from '@medfolio/contracts';
import { FakeGoogle } from '@medfolio/testing';
import { caller, IdentityHarness } from '../testing/identity-harness';
import { AccountService } from './account.service';
import { ProfileService } from './profile.service';
import { SessionService } from './session.service';

const h = new IdentityHarness();
let google: FakeGoogle;
let sessions: SessionService;

beforeAll(async () => {
  google = await FakeGoogle.start({ clientId: 'medfolio-web.apps.example' });
  const settings = google.settings();
  await h.start({
    GOOGLE_CLIENT_IDS: settings.clientIds.join(','),
    GOOGLE_JWKS_URL: settings.jwksUrl,
    GOOGLE_USERINFO_URL: settings.userinfoUrl,
    ...(settings.tokeninfoUrl ? { GOOGLE_TOKENINFO_URL: settings.tokeninfoUrl } : {}),
  });
  sessions = h.get(SessionService);
}, 60_000);

afterAll(async () => {
  await h.stop();
  await google.stop();
});

describe('sign-in with Google (against a local Google stand-in)', () => {
  it('creates a verified account from an ID token and signs in again by the same subject', async () => {
    const email = `g-${randomUUID().slice(0, 8)}@example.com`;
    const sub = `google-${randomUUID()}`;
    const first = await sessions.loginWithGoogle(caller(), await google.idToken({ email, sub, given_name: 'Gina', family_name: 'Lopez' }));
    const userId = decodeJwt(first.access).sub!;
    const profile = await h.get(ProfileService).get(caller('203.0.113.9', { userId }));
    expect(profile).toMatchObject({ email, first_name: 'Gina', last_name: 'Lopez', email_verified: true });
    const again = await sessions.loginWithGoogle(caller(), await google.idToken({ email: `changed-${email}`, sub }));
    expect(decodeJwt(again.access).sub).toBe(userId);
    const [outbox] = await h.sql<{ n: number }>(`SELECT count(*)::int AS n FROM identity.outbox WHERE payload->>'user_id' = $1 AND subject = 'identity.user.verified.v1'`, [userId]);
    expect(outbox!.n).toBe(1);
  });

  it('links an existing verified password account with the same verified e-mail; the password still works', async () => {
    const email = `link-${randomUUID().slice(0, 8)}@example.com`;
    await h.get(AccountService).register(caller(), { first_name: 'Lee', phone: '+1 202 555 0143', email, password: 'correct horse battery', date_of_birth: '1980-01-01' });
    await h.sql(`UPDATE identity.users SET email_verified = true WHERE email = $1`, [email]);
    const [row] = await h.sql<{ id: string }>(`SELECT id FROM identity.users WHERE email = $1`, [email]);
    const tokens = await sessions.loginWithGoogle(caller(), google.accessToken({ email, sub: `google-${randomUUID()}` }));
    expect(decodeJwt(tokens.access).sub).toBe(row!.id);
    await expect(sessions.login(caller(), { email, password: 'correct horse battery' })).resolves.toHaveProperty('access');
  });

  it('links an account nobody verified, dropping the password its unproven owner set (no pre-hijacking)', async () => {
    const email = `prehijack-${randomUUID().slice(0, 8)}@example.com`;
    // Someone signs up first with another person's address and never verifies it...
    await h.get(AccountService).register(caller(), { first_name: 'Lee', phone: '+1 202 555 0143', email, password: 'attacker knows this', date_of_birth: '1980-01-01' });
    // ...then the address's real owner signs in with Google.
    const tokens = await sessions.loginWithGoogle(caller(), google.accessToken({ email, sub: `google-${randomUUID()}` }));
    expect(decodeJwt(tokens.access).sub).toBeDefined();
    await expect(sessions.login(caller(), { email, password: 'attacker knows this' })).rejects.toThrow();
  });

  it("follows the Google subject, not the e-mail: a changed address never signs in to another user, nor links a second Google account", async () => {
    const mine = `mine-${randomUUID().slice(0, 8)}@example.com`;
    const sub = `google-${randomUUID()}`;
    const first = await sessions.loginWithGoogle(caller(), await google.idToken({ email: mine, sub }));
    const userId = decodeJwt(first.access).sub!;
    const other = `other-${randomUUID().slice(0, 8)}@example.com`;
    const otherSub = `google-${randomUUID()}`;
    const otherUser = decodeJwt((await sessions.loginWithGoogle(caller(), await google.idToken({ email: other, sub: otherSub }))).access).sub!;
    // The first Google account now shows the other user's address: still its own account.
    const moved = await sessions.loginWithGoogle(caller(), await google.idToken({ email: other, sub }));
    expect(decodeJwt(moved.access).sub).toBe(userId);
    // A third Google account with the first user's address is not linked to it.
    const code = (p: Promise<unknown>) => p.then(() => 'ok', (e: DomainError) => e.code);
    await expect(code(sessions.loginWithGoogle(caller(), await google.idToken({ email: mine, sub: `google-${randomUUID()}` })))).resolves.toBe('CONFLICT');
    const [row] = await h.sql<{ google_subject: string }>(`SELECT google_subject FROM identity.users WHERE id = $1`, [userId]);
    expect(row!.google_subject).toBe(sub);
    expect(otherUser).not.toBe(userId);
  });

  it('refuses an unverified Google e-mail, a token for another app and a forged token', async () => {
    const code = (p: Promise<unknown>) => p.then(() => 'ok', (e: DomainError) => e.code);
    await expect(code(sessions.loginWithGoogle(caller(), await google.idToken({ email_verified: false })))).resolves.toBe('UNAUTHENTICATED');
    await expect(code(sessions.loginWithGoogle(caller(), await google.idToken({ aud: 'someone-elses-app' })))).resolves.toBe('UNAUTHENTICATED');
    await expect(code(sessions.loginWithGoogle(caller(), google.accessToken({ clientId: 'someone-elses-app' })))).resolves.toBe('UNAUTHENTICATED');
    await expect(code(sessions.loginWithGoogle(caller(), 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.'))).resolves.toBe('UNAUTHENTICATED');
  });
});
