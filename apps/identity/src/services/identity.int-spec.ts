import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { decodeJwt } from 'jose';
import sharp from 'sharp';
import type { DomainError, RegisterDto } from '@medfolio/contracts';
import { PICTURE_UPLOAD_MESSAGES } from '../pictures';
import { KeysRepository } from '../repositories/keys.repository';
import { caller, IdentityHarness } from '../testing/identity-harness';
import { AccountService, MESSAGES } from './account.service';
import { PasswordService, PASSWORD_MESSAGES } from './password.service';
import { ProfileService } from './profile.service';
import { otpHash } from './secrets';
import { SessionService, SESSION_MESSAGES } from './session.service';

const h = new IdentityHarness();
let accounts: AccountService;
let sessions: SessionService;
let passwords: PasswordService;
let profiles: ProfileService;

const newUser = (overrides: Partial<RegisterDto> = {}): RegisterDto => ({
  first_name: 'Ana',
  last_name: '',
  phone: '+1 202 555 0143',
  email: `ana-${randomUUID().slice(0, 8)}@example.com`,
  password: 'correct horse battery',
  date_of_birth: '1990-04-01',
  ...overrides,
});

async function verifiedUser(overrides: Partial<RegisterDto> = {}) {
  const dto = newUser(overrides);
  await accounts.register(caller(), dto);
  await accounts.verifyOtp(caller(), { email: dto.email, otp: h.lastMail(dto.email, 'verification-code').data['code']! });
  return dto;
}

const userIdOf = (access: string) => decodeJwt(access).sub!;
const sidOf = (access: string) => decodeJwt(access)['sid'] as string;
const codeOf = (p: Promise<unknown>) => p.then(() => 'ok', (e: DomainError) => e.code);

beforeAll(async () => {
  await h.start({ REFRESH_REUSE_GRACE_SECONDS: '0', AUTH_FAILURES_PER_ACCOUNT_PER_HOUR: '5', AUTH_FAILURES_PER_ACCOUNT_PER_CLIENT_PER_HOUR: '3', AUTH_FAILURES_PER_IP_PER_HOUR: '8' });
  accounts = h.get(AccountService);
  sessions = h.get(SessionService);
  passwords = h.get(PasswordService);
  profiles = h.get(ProfileService);
}, 60_000);

afterAll(() => h.stop());

describe('registration and verification', () => {
  it('creates an unverified user, stores an argon2id hash and e-mails a 4-digit code', async () => {
    const dto = newUser({ email: `Mixed.Case-${randomUUID().slice(0, 6)}@Example.com` });
    const reply = await accounts.register(caller(), dto);
    expect(reply.message).toBe(MESSAGES.registered);
    const [row] = await h.sql<{ password_hash: string; email_verified: boolean }>(`SELECT password_hash, email_verified FROM identity.users WHERE email = $1`, [dto.email]);
    expect(row!.email_verified).toBe(false);
    expect(row!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(h.lastMail(dto.email, 'verification-code').data['code']).toMatch(/^\d{4}$/);
    const [code] = await h.sql<{ code_hash: string }>(`SELECT code_hash FROM identity.otp_codes o JOIN identity.users u ON u.id = o.user_id WHERE u.email = $1`, [dto.email]);
    expect(code!.code_hash).not.toContain(h.lastMail(dto.email, 'verification-code').data['code']);
  });

  it('answers a taken address (in any case) as a new one, changes nothing, and e-mails the owner instead (it answered 409)', async () => {
    const dto = newUser();
    await accounts.register(caller(), dto);
    const fresh = await accounts.register(caller(), newUser());
    const taken = await accounts.register(caller('198.51.105.1'), { ...dto, email: dto.email.toUpperCase(), password: 'someone else 123', first_name: 'Eve' });
    expect(Object.keys(taken).sort()).toEqual(Object.keys(fresh).sort());
    expect(taken).toEqual({ message: MESSAGES.registered, email: dto.email.toUpperCase() });
    // The owner's account is untouched: one row, the first name and password as they were, no new code.
    const rows = await h.sql<{ first_name: string }>(`SELECT first_name FROM identity.users WHERE email_normalized = $1`, [dto.email.toLowerCase()]);
    expect(rows).toEqual([{ first_name: 'Ana' }]);
    expect(h.mail.filter((m) => m.to.toLowerCase() === dto.email.toLowerCase() && m.template === 'verification-code')).toHaveLength(1);
    const told = h.lastMail(dto.email, 'sign-up-attempt');
    expect(told.data).toEqual({ first_name: 'Ana', sign_in_url: 'http://localhost:3000/login', reset_url: 'http://localhost:3000/forgot-password' });
    // At most 3 such e-mails an hour to one address; every answer the same.
    for (let i = 0; i < 4; i += 1) await expect(accounts.register(caller(), dto)).resolves.toEqual({ message: MESSAGES.registered, email: dto.email });
    expect(h.mail.filter((m) => m.to === dto.email && m.template === 'sign-up-attempt')).toHaveLength(3);
  });

  it('refuses impossible and future dates of birth', async () => {
    await expect(accounts.register(caller(), newUser({ date_of_birth: '1990-02-30' }))).rejects.toMatchObject({ message: 'Date of birth is not a real date.' });
    await expect(accounts.register(caller(), newUser({ date_of_birth: '2999-01-01' }))).rejects.toMatchObject({ message: 'Date of birth cannot be in the future.' });
  });

  it('refuses sign-in before verification (403), verifies once, and the code is single use', async () => {
    const dto = newUser();
    await accounts.register(caller(), dto);
    await expect(sessions.login(caller(), dto)).rejects.toMatchObject({ code: 'FORBIDDEN', message: SESSION_MESSAGES.unverified });
    const code = h.lastMail(dto.email, 'verification-code').data['code']!;
    const verified = await accounts.verifyOtp(caller(), { email: dto.email, otp: code });
    expect(verified).toMatchObject({ message: MESSAGES.verified });
    // The verification signs the user in: a working pair, as the login answers.
    expect(verified.refresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect(codeOf(sessions.refresh(caller(), verified.refresh!))).resolves.toBe('ok');
    const profile = await profiles.get(caller('203.0.113.9', { userId: userIdOf(verified.access!), sessionId: sidOf(verified.access!) }));
    expect(profile.email).toBe(dto.email.toLowerCase());
    // A second call proves nothing new and hands out no session.
    await expect(accounts.verifyOtp(caller(), { email: dto.email, otp: code })).resolves.toEqual({ message: MESSAGES.alreadyVerified });
    const tokens = await sessions.login(caller(), dto);
    expect(tokens.refresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('allows 5 wrong tries per code, then asks for a new one', async () => {
    const dto = newUser();
    await accounts.register(caller(), dto);
    const code = h.lastMail(dto.email, 'verification-code').data['code']!;
    const wrong = code === '0000' ? '1111' : '0000';
    // From several addresses: one address alone is stopped after 3 (this harness's per account-and-client limit).
    for (let i = 0; i < 4; i += 1) await expect(accounts.verifyOtp(caller(`198.51.103.${i}`), { email: dto.email, otp: wrong })).rejects.toMatchObject({ message: MESSAGES.badCode });
    await expect(accounts.verifyOtp(caller('198.51.103.9'), { email: dto.email, otp: wrong })).rejects.toMatchObject({ message: MESSAGES.tooManyTries });
    // This harness allows 5 failures per account and hour; clear them to see the per-code rule alone.
    await h.sql(`DELETE FROM identity.auth_failures`);
    await expect(accounts.verifyOtp(caller(), { email: dto.email, otp: code })).rejects.toMatchObject({ message: MESSAGES.tooManyTries });
  });

  it('expires codes after 10 minutes', async () => {
    const dto = newUser();
    await accounts.register(caller(), dto);
    await h.sql(`UPDATE identity.otp_codes SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM identity.users WHERE email = $1)`, [dto.email]);
    await expect(accounts.verifyOtp(caller(), { email: dto.email, otp: h.lastMail(dto.email, 'verification-code').data['code']! })).rejects.toMatchObject({ message: MESSAGES.expiredCode });
  });

  it('resends at most once per 30 seconds, and only the newest code works', async () => {
    const dto = newUser();
    await accounts.register(caller(), dto);
    const first = h.lastMail(dto.email, 'verification-code').data['code']!;
    await expect(accounts.resendOtp(caller(), dto.email)).rejects.toMatchObject({ code: 'RATE_LIMITED', details: { retry_after: [expect.stringMatching(/^\d+$/)] } });
    await h.sql(`UPDATE identity.otp_codes SET created_at = now() - interval '31 seconds'`);
    await expect(accounts.resendOtp(caller(), dto.email)).resolves.toEqual({ message: MESSAGES.resent });
    const second = h.lastMail(dto.email, 'verification-code').data['code']!;
    if (first !== second) await expect(accounts.verifyOtp(caller(), { email: dto.email, otp: first })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(accounts.verifyOtp(caller(), { email: dto.email, otp: second })).resolves.toMatchObject({ message: MESSAGES.verified });
    await expect(accounts.resendOtp(caller(), `nobody-${randomUUID()}@example.com`)).resolves.toEqual({ message: MESSAGES.resent });
  });

  it('publishes registered and verified events through the outbox', async () => {
    const dto = await verifiedUser();
    const rows = await h.sql<{ subject: string; payload: { email: string } }>(`SELECT subject, payload FROM identity.outbox ORDER BY created_at`);
    const mine = rows.filter((r) => r.payload.email === dto.email).map((r) => r.subject);
    expect(mine).toEqual(['identity.user.registered.v1', 'identity.user.verified.v1']);
  });

  it("carries the sign-up link's referral code in both events (upper-cased; a malformed one is dropped)", async () => {
    const withCode = await verifiedUser({ ref: 'k7m2qx9a' });
    const malformed = await verifiedUser({ ref: 'no such code!' });
    const rows = await h.sql<{ payload: { email: string; referral_code: string | null } }>(`SELECT payload FROM identity.outbox WHERE payload->>'email' IN ($1, $2)`, [withCode.email, malformed.email]);
    expect(rows.filter((r) => r.payload.email === withCode.email).map((r) => r.payload.referral_code)).toEqual(['K7M2QX9A', 'K7M2QX9A']);
    expect(rows.filter((r) => r.payload.email === malformed.email).map((r) => r.payload.referral_code)).toEqual([null, null]);
  });
});

describe('sign-in and tokens', () => {
  it('tells the gateways every revoked sign-in (logout, reuse, reset, change) through the outbox, in the same transaction', async () => {
    const revokedSids = async () =>
      (await h.sql<{ payload: { session_ids: string[]; reason: string } }>(`SELECT payload FROM identity.outbox WHERE subject = 'identity.user.sessions-revoked.v1'`)).flatMap((r) =>
        r.payload.session_ids.map((sid) => `${r.payload.reason}:${sid}`),
      );
    const dto = await verifiedUser();
    const out = await sessions.login(caller(), dto);
    await sessions.logout(caller(), out.refresh);
    const stolen = await sessions.login(caller(), dto);
    await sessions.refresh(caller(), stolen.refresh);
    await sessions.refresh(caller(), stolen.refresh).catch(() => undefined); // reuse after the grace (0 s here)
    const a = await sessions.login(caller(), dto);
    const b = await sessions.login(caller(), dto);
    await passwords.change(caller('203.0.113.9', { userId: userIdOf(a.access), sessionId: sidOf(a.access) }), { old_password: dto.password, new_password: 'changed password 1' });
    await passwords.forgot(caller(), dto.email);
    await passwords.settled();
    const token = /\/([A-Za-z0-9_-]{43})$/.exec(h.lastMail(dto.email, 'password-reset').data['reset_url']!)![1]!;
    await passwords.reset(caller(), { email: dto.email, password: 'changed password 2', token });
    expect(await revokedSids()).toEqual(
      expect.arrayContaining([`logout:${sidOf(out.access)}`, `refresh token reuse:${sidOf(stolen.access)}`, `password change:${sidOf(b.access)}`, `password reset:${sidOf(a.access)}`]),
    );
    expect(await revokedSids()).not.toContain(`password change:${sidOf(a.access)}`); // the sign-in that changed it stays
  });

  it('gives one message for an unknown e-mail and a wrong password', async () => {
    const dto = await verifiedUser();
    await expect(sessions.login(caller(), { email: dto.email, password: 'wrong password' })).rejects.toMatchObject({ code: 'UNAUTHENTICATED', message: SESSION_MESSAGES.badCredentials });
    await expect(sessions.login(caller(), { email: `x-${dto.email}`, password: dto.password })).rejects.toMatchObject({ code: 'UNAUTHENTICATED', message: SESSION_MESSAGES.badCredentials });
  });

  it('rotates refresh tokens; a rotated one is refused', async () => {
    const dto = await verifiedUser();
    const first = await sessions.login(caller(), dto);
    const second = await sessions.refresh(caller(), first.refresh);
    expect(second.refresh).not.toBe(first.refresh);
    expect(userIdOf(second.access)).toBe(userIdOf(first.access));
    expect(sidOf(second.access)).toBe(sidOf(first.access));
    await expect(codeOf(sessions.refresh(caller(), first.refresh))).resolves.toBe('UNAUTHENTICATED');
  });

  it('revokes the whole sign-in when a rotated token is presented again (theft)', async () => {
    const dto = await verifiedUser();
    const first = await sessions.login(caller(), dto);
    const second = await sessions.refresh(caller(), first.refresh);
    await expect(codeOf(sessions.refresh(caller(), first.refresh))).resolves.toBe('UNAUTHENTICATED');
    await expect(codeOf(sessions.refresh(caller(), second.refresh))).resolves.toBe('UNAUTHENTICATED');
    const [family] = await h.sql<{ revoked_reason: string }>(`SELECT revoked_reason FROM identity.refresh_families WHERE id = $1`, [sidOf(first.access)]);
    expect(family!.revoked_reason).toBe('refresh token reuse');
  });

  it('rotates exactly once under 5 concurrent refreshes with one token', async () => {
    const dto = await verifiedUser();
    const { refresh } = await sessions.login(caller(), dto);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => sessions.refresh(caller(), refresh)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const [count] = await h.sql<{ n: number }>(`SELECT count(*)::int AS n FROM identity.refresh_tokens t WHERE t.family_id = $1`, [sidOf(results.find((r) => r.status === 'fulfilled')!.value.access)]);
    expect(count!.n).toBe(2);
  });

  it('does not accept an access token as a refresh token', async () => {
    const dto = await verifiedUser();
    const { access } = await sessions.login(caller(), dto);
    await expect(codeOf(sessions.refresh(caller(), access))).resolves.toBe('UNAUTHENTICATED');
  });

  it('signs out one sign-in and leaves the others', async () => {
    const dto = await verifiedUser();
    const laptop = await sessions.login(caller(), dto);
    const phone = await sessions.login(caller(), dto);
    // The reply names the sign-in revoked, for the gateway that serves the sign-out.
    await expect(sessions.logout(caller(), laptop.refresh)).resolves.toEqual({ message: SESSION_MESSAGES.loggedOut, revoked_session_ids: [sidOf(laptop.access)] });
    await expect(codeOf(sessions.refresh(caller(), laptop.refresh))).resolves.toBe('UNAUTHENTICATED');
    await expect(codeOf(sessions.refresh(caller(), phone.refresh))).resolves.toBe('ok');
    // By the access token alone; nothing to name without either.
    await expect(sessions.logout(caller('203.0.113.9', { userId: userIdOf(phone.access), sessionId: sidOf(phone.access) }))).resolves.toEqual({ message: SESSION_MESSAGES.loggedOut, revoked_session_ids: [sidOf(phone.access)] });
    await expect(codeOf(sessions.refresh(caller(), phone.refresh))).resolves.toBe('UNAUTHENTICATED');
    await expect(sessions.logout(caller())).resolves.toEqual({ message: SESSION_MESSAGES.loggedOut });
  });

  it('past the account-wide limit, a new address gets a step-up (the same answer whatever the password), not a refusal; the limit decays', async () => {
    const dto = await verifiedUser();
    for (let i = 0; i < 5; i += 1) await expect(codeOf(sessions.login(caller(`198.51.100.${i}`), { email: dto.email, password: 'nope nope' }))).resolves.toBe('UNAUTHENTICATED');
    const codes = () => h.mail.filter((m) => m.to === dto.email && m.template === 'sign-in-code').length;
    // The right password and a wrong one answer alike: no oracle for the guessers past the limit.
    const right = await sessions.login(caller('198.51.100.77'), dto).catch((e: DomainError) => e);
    const wrong = await sessions.login(caller('198.51.100.78'), { email: dto.email, password: 'still guessing' }).catch((e: DomainError) => e);
    const unknown = await sessions.login(caller('198.51.100.79'), { email: `nobody-${randomUUID()}@example.com`, password: 'x' }).catch((e: DomainError) => e);
    expect(right).toMatchObject({ code: 'STEP_UP_REQUIRED', message: SESSION_MESSAGES.stepUp });
    expect(wrong).toMatchObject({ code: 'STEP_UP_REQUIRED', message: SESSION_MESSAGES.stepUp });
    expect(unknown).toMatchObject({ code: 'UNAUTHENTICATED' }); // an address nobody attacks is not affected
    await accounts.settled();
    expect(codes()).toBe(1); // only the right password sent a code
    await h.sql(`UPDATE identity.auth_failures SET occurred_at = occurred_at - interval '61 minutes' WHERE subject_key = $1`, [`account:${dto.email}`]);
    await expect(codeOf(sessions.login(caller(), dto))).resolves.toBe('ok');
  });

  it('the owner gets in from a new address during a distributed attack: right password, then the e-mailed code (it answered 429 for an hour)', async () => {
    const dto = await verifiedUser();
    const home = '203.0.113.60';
    await expect(codeOf(sessions.login(caller(home), dto))).resolves.toBe('ok');
    for (let i = 0; i < 5; i += 1) await expect(codeOf(sessions.login(caller(`198.51.101.${i}`), { email: dto.email, password: 'guess guess' }))).resolves.toBe('UNAUTHENTICATED');
    await expect(codeOf(sessions.login(caller(home), dto))).resolves.toBe('ok'); // a known address goes on
    const travel = '203.0.113.61';
    await expect(codeOf(sessions.login(caller(travel), dto))).resolves.toBe('STEP_UP_REQUIRED');
    await accounts.settled();
    const code = h.lastMail(dto.email, 'sign-in-code').data['code']!;
    expect(code).toMatch(/^\d{4}$/);
    // Attackers trying codes from many addresses neither use up the owner's code nor run up a limit that stops it.
    const wrong = code === '0000' ? '1111' : '0000';
    for (let i = 0; i < 8; i += 1) await expect(accounts.verifyOtp(caller(`198.51.106.${i}`), { email: dto.email, otp: wrong })).resolves.toEqual({ message: MESSAGES.alreadyVerified });
    const [live] = await h.sql<{ failed_attempts: number }>(`SELECT failed_attempts FROM identity.otp_codes WHERE consumed_at IS NULL AND user_id = (SELECT id FROM identity.users WHERE email = $1)`, [dto.email]);
    expect(live!.failed_attempts).toBe(0);
    const signedIn = await accounts.verifyOtp(caller(travel), { email: dto.email, otp: code });
    expect(signedIn).toMatchObject({ message: MESSAGES.signedIn, access: expect.any(String), refresh: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(userIdOf(signedIn.access!)).toBe((await h.sql<{ id: string }>(`SELECT id FROM identity.users WHERE email = $1`, [dto.email]))[0]!.id);
    // Used up; and the address is known from now on: the password alone signs in there.
    await expect(accounts.verifyOtp(caller(travel), { email: dto.email, otp: code })).resolves.toEqual({ message: MESSAGES.alreadyVerified });
    await expect(codeOf(sessions.login(caller(travel), dto))).resolves.toBe('ok');
    // Elsewhere the attack still holds, and the step-up stays.
    await expect(codeOf(sessions.login(caller('198.51.101.99'), dto))).resolves.toBe('STEP_UP_REQUIRED');
  });

  it('a sign-in code allows 5 wrong tries; a verification code never passes for one', async () => {
    const dto = await verifiedUser();
    for (let i = 0; i < 5; i += 1) await sessions.login(caller(`198.51.107.${i}`), { email: dto.email, password: 'guess guess' }).catch(() => undefined);
    await expect(codeOf(sessions.login(caller('203.0.113.62'), dto))).resolves.toBe('STEP_UP_REQUIRED');
    await accounts.settled();
    const code = h.lastMail(dto.email, 'sign-in-code').data['code']!;
    const wrong = code === '0000' ? '1111' : '0000';
    const tries = async (otp: string) => {
      await h.sql(`DELETE FROM identity.auth_failures WHERE scope = 'otp'`); // this harness allows 3 failures per address: see the code's own limit
      return accounts.verifyOtp(caller('203.0.113.62'), { email: dto.email, otp });
    };
    for (let i = 0; i < 4; i += 1) await expect(tries(wrong)).rejects.toMatchObject({ message: MESSAGES.badCode });
    await expect(tries(wrong)).rejects.toMatchObject({ message: MESSAGES.tooManyTries });
    await expect(tries(code)).rejects.toMatchObject({ message: MESSAGES.tooManyTries });
    // The codes' HMACs are bound to their purpose.
    const [user] = await h.sql<{ id: string }>(`SELECT id FROM identity.users WHERE email = $1`, [dto.email]);
    const [row] = await h.sql<{ code_hash: string }>(`SELECT code_hash FROM identity.otp_codes WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1`, [user!.id]);
    const secret = await h.get(KeysRepository).hmacSecret();
    expect(row!.code_hash).not.toBe(otpHash(secret, user!.id, code));
  });

  it('a genuine reset link always works, however many bogus tokens were tried (100 made it answer 429)', async () => {
    const dto = await verifiedUser();
    for (let ip = 0; ip < 3; ip += 1) {
      for (let i = 0; i < 3; i += 1) {
        // 400 for a bad link, then 429 once a limit is reached (3 per address, 5 per account here).
        expect(['VALIDATION_FAILED', 'RATE_LIMITED']).toContain(await codeOf(passwords.reset(caller(`198.51.109.${ip}`), { email: dto.email, password: 'taken over 123', token: `bogus-${ip}-${i}-${'x'.repeat(30)}` })));
      }
    }
    // Past the limits, bogus tokens are refused outright...
    await expect(codeOf(passwords.reset(caller('198.51.109.0'), { email: dto.email, password: 'taken over 123', token: 'bogus' }))).resolves.toBe('RATE_LIMITED');
    await expect(codeOf(passwords.reset(caller('203.0.113.63'), { email: dto.email, password: 'taken over 123', token: 'bogus' }))).resolves.toBe('RATE_LIMITED');
    // ...and the owner's real link works, from a new address and from an attacked one alike.
    await passwords.forgot(caller(), dto.email);
    await passwords.settled();
    const token = /\/([A-Za-z0-9_-]{43})$/.exec(h.lastMail(dto.email, 'password-reset').data['reset_url']!)![1]!;
    await expect(passwords.reset(caller('203.0.113.63'), { email: dto.email, password: 'a new password 7', token })).resolves.toMatchObject({ message: PASSWORD_MESSAGES.reset });
    await passwords.forgot(caller(), dto.email);
    await passwords.settled();
    const again = /\/([A-Za-z0-9_-]{43})$/.exec(h.lastMail(dto.email, 'password-reset').data['reset_url']!)![1]!;
    await expect(passwords.reset(caller('198.51.109.0'), { email: dto.email, password: 'a new password 8', token: again })).resolves.toMatchObject({ message: PASSWORD_MESSAGES.reset });
    await expect(codeOf(sessions.login(caller('203.0.113.63'), { email: dto.email, password: 'a new password 8' }))).resolves.toBe('ok');
  });

  it('stops an attacker’s address on an account while the owner signs in from elsewhere (no lockout for everyone)', async () => {
    const dto = await verifiedUser();
    const attacker = '198.51.100.200';
    for (let i = 0; i < 3; i += 1) await expect(codeOf(sessions.login(caller(attacker), { email: dto.email, password: 'guess guess' }))).resolves.toBe('UNAUTHENTICATED');
    await expect(codeOf(sessions.login(caller(attacker), dto))).resolves.toBe('RATE_LIMITED'); // even the right password, from there
    await expect(codeOf(sessions.login(caller('203.0.113.50'), dto))).resolves.toBe('ok');
  });

  it('a distributed attack: a reset link proves the mailbox too, and the new address is known from then on', async () => {
    const dto = await verifiedUser();
    for (let i = 0; i < 5; i += 1) await expect(codeOf(sessions.login(caller(`198.51.101.${i + 10}`), { email: dto.email, password: 'guess guess' }))).resolves.toBe('UNAUTHENTICATED');
    const travel = '203.0.113.64';
    await expect(codeOf(sessions.login(caller(travel), dto))).resolves.toBe('STEP_UP_REQUIRED');
    await passwords.forgot(caller(travel), dto.email);
    await passwords.settled();
    const token = /\/([A-Za-z0-9_-]{43})$/.exec(h.lastMail(dto.email, 'password-reset').data['reset_url']!)![1]!;
    await passwords.reset(caller(travel), { email: dto.email, password: 'a new password 9', token });
    await expect(codeOf(sessions.login(caller(travel), { email: dto.email, password: 'a new password 9' }))).resolves.toBe('ok');
  });

  it('limits failed attempts per client address across accounts', async () => {
    const ip = '192.0.2.44';
    for (let i = 0; i < 8; i += 1) {
      await expect(codeOf(sessions.login(caller(ip), { email: `nobody-${i}-${randomUUID()}@example.com`, password: 'x' }))).resolves.toBe('UNAUTHENTICATED');
    }
    const dto = await verifiedUser();
    await expect(codeOf(sessions.login(caller(ip), dto))).resolves.toBe('RATE_LIMITED');
    await expect(codeOf(sessions.login(caller('192.0.2.45'), dto))).resolves.toBe('ok');
  });
});

describe('passwords', () => {
  it('resets with the e-mailed single-use link, signing out everywhere; the reply holds no secret', async () => {
    const dto = await verifiedUser();
    const session = await sessions.login(caller(), dto);
    const reply = await passwords.forgot(caller(), dto.email.toUpperCase());
    expect(reply).toEqual({ message: PASSWORD_MESSAGES.forgot, token: null });
    await passwords.settled();
    const link = h.lastMail(dto.email, 'password-reset').data['reset_url']!;
    const match = /\/reset-password\/([^/]+)\/([A-Za-z0-9_-]{43})$/.exec(link);
    expect(match).not.toBeNull();
    const token = match![2]!;
    await expect(passwords.reset(caller(), { email: `other-${dto.email}`, password: 'new password 1', token })).rejects.toMatchObject({ message: PASSWORD_MESSAGES.badLink });
    // The reply names the sign-ins revoked, for the gateway that serves it.
    await expect(passwords.reset(caller(), { email: decodeURIComponent(match![1]!), password: 'new password 1', token })).resolves.toEqual({ message: PASSWORD_MESSAGES.reset, revoked_session_ids: expect.arrayContaining([sidOf(session.access)]) });
    await expect(passwords.reset(caller(), { email: dto.email, password: 'new password 2', token })).rejects.toMatchObject({ message: PASSWORD_MESSAGES.badLink });
    await expect(codeOf(sessions.refresh(caller(), session.refresh))).resolves.toBe('UNAUTHENTICATED');
    await expect(codeOf(sessions.login(caller(), { email: dto.email, password: 'new password 1' }))).resolves.toBe('ok');
  });

  it('answers forgot-password the same for unknown addresses and sends nothing', async () => {
    const before = h.mail.length;
    await expect(passwords.forgot(caller(), `nobody-${randomUUID()}@example.com`)).resolves.toEqual({ message: PASSWORD_MESSAGES.forgot, token: null });
    await passwords.settled();
    expect(h.mail.length).toBe(before);
  });

  it('sends at most 5 reset links an hour to one address, answering every request the same', async () => {
    const dto = await verifiedUser();
    const sent = () => h.mail.filter((m) => m.to === dto.email && m.template === 'password-reset').length;
    for (let i = 0; i < 8; i += 1) await expect(passwords.forgot(caller(`198.51.102.${i}`), dto.email)).resolves.toEqual({ message: PASSWORD_MESSAGES.forgot, token: null });
    await passwords.settled();
    expect(sent()).toBe(5);
  });

  it('answers forgot-password as fast for an address with an account as for one without (no enumeration by timing)', async () => {
    const dto = await verifiedUser();
    const time = async (email: string) => {
      const started = process.hrtime.bigint();
      await passwords.forgot(caller(), email);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      await passwords.settled();
      return ms;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      known.push(await time(dto.email));
      unknown.push(await time(`nobody-${randomUUID()}@example.com`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // The work happens after the answer: both answer in well under a millisecond; generous bound.
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(3);
  });

  it('expires reset links after 30 minutes', async () => {
    const dto = await verifiedUser();
    await passwords.forgot(caller(), dto.email);
    await passwords.settled();
    const token = /\/([A-Za-z0-9_-]{43})$/.exec(h.lastMail(dto.email, 'password-reset').data['reset_url']!)![1]!;
    await h.sql(`UPDATE identity.password_resets SET expires_at = now() - interval '1 second'`);
    await expect(passwords.reset(caller(), { email: dto.email, password: 'new password 1', token })).rejects.toMatchObject({ message: PASSWORD_MESSAGES.badLink });
  });

  it('changes the password after checking the old one, revoking the other sign-ins only', async () => {
    const dto = await verifiedUser();
    const here = await sessions.login(caller(), dto);
    const elsewhere = await sessions.login(caller(), dto);
    const me = caller('203.0.113.9', { userId: userIdOf(here.access), sessionId: sidOf(here.access) });
    await expect(passwords.change(me, { old_password: 'not it at all', new_password: 'brand new pass' })).rejects.toMatchObject({ message: PASSWORD_MESSAGES.wrongOld });
    await expect(passwords.change(me, { old_password: dto.password, new_password: 'brand new pass' })).resolves.toEqual({
      message: 'Password updated successfully',
      detail: 'Password updated successfully',
      revoked_session_ids: expect.arrayContaining([sidOf(elsewhere.access)]), // for the gateway that serves it; the verification's sign-in too
    });
    await expect(codeOf(sessions.refresh(caller(), elsewhere.refresh))).resolves.toBe('UNAUTHENTICATED');
    await expect(codeOf(sessions.refresh(caller(), here.refresh))).resolves.toBe('ok');
  });
});

describe('password change guesses', () => {
  it('counts wrong old passwords as failed sign-ins: a stolen access token is no password oracle (40 guesses went through)', async () => {
    const dto = await verifiedUser();
    const thief = '198.51.104.7';
    const { access } = await sessions.login(caller(), dto);
    const stolen = caller(thief, { userId: userIdOf(access), sessionId: sidOf(access) });
    // This harness allows 3 failures per account and client: then 429, even for the right old password.
    for (let i = 0; i < 3; i += 1) await expect(passwords.change(stolen, { old_password: `guess number ${i}`, new_password: 'taken over 123' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: PASSWORD_MESSAGES.wrongOld });
    await expect(passwords.change(stolen, { old_password: dto.password, new_password: 'taken over 123' })).rejects.toMatchObject({ code: 'RATE_LIMITED', details: { retry_after: [expect.stringMatching(/^\d+$/)] } });
    // One budget per password: the sign-in from there is stopped too; the owner elsewhere is not.
    await expect(codeOf(sessions.login(caller(thief), dto))).resolves.toBe('RATE_LIMITED');
    await expect(codeOf(sessions.login(caller('203.0.113.70'), dto))).resolves.toBe('ok');
    const [row] = await h.sql<{ n: number }>(`SELECT count(*)::int AS n FROM identity.auth_failures WHERE scope = 'login' AND subject_key = $1`, [`account-client:${dto.email}|${thief}`]);
    expect(row!.n).toBe(3);
  });
});

describe('profile', () => {
  it('reads and changes only the caller’s own profile', async () => {
    const ana = await verifiedUser();
    const bo = await verifiedUser({ first_name: 'Bo' });
    const anaId = userIdOf((await sessions.login(caller(), ana)).access);
    const boId = userIdOf((await sessions.login(caller(), bo)).access);
    const asAna = caller('203.0.113.9', { userId: anaId });
    expect(await profiles.get(asAna)).toMatchObject({ id: anaId, first_name: 'Ana', email: ana.email, email_verified: true, date_of_birth: '1990-04-01', profile_picture: null });
    const updated = await profiles.update(asAna, { first_name: 'Anna', last_name: 'Smith', phone: '+1 202 555 0199' });
    expect(updated).toMatchObject({ id: anaId, first_name: 'Anna', last_name: 'Smith', phone: '+1 202 555 0199' });
    expect(await profiles.get(caller('203.0.113.9', { userId: boId }))).toMatchObject({ id: boId, first_name: 'Bo', gender: null });
    // Gender and birthday (the /profile overview): changed when sent, kept when absent, cleared with ''.
    const base = { first_name: 'Anna', phone: '+1 202 555 0199' };
    expect(await profiles.update(asAna, { ...base, gender: 'female', date_of_birth: '1991-02-03' })).toMatchObject({ gender: 'female', date_of_birth: '1991-02-03' });
    expect(await profiles.update(asAna, base)).toMatchObject({ gender: 'female', date_of_birth: '1991-02-03' });
    expect(await profiles.get(asAna)).toMatchObject({ gender: 'female', date_of_birth: '1991-02-03' });
    expect(await profiles.update(asAna, { ...base, gender: '' })).toMatchObject({ gender: null });
    await expect(codeOf(profiles.update(asAna, { ...base, date_of_birth: '2999-01-01' }))).resolves.toBe('VALIDATION_FAILED');
    await expect(codeOf(profiles.get(caller()))).resolves.toBe('UNAUTHENTICATED');
  });
});

describe('profile picture upload', () => {
  /** A multipart body as a browser would send it, with the files under their field names. */
  async function upload(files: [field: string, data: Buffer][]) {
    const form = new FormData();
    for (const [field, data] of files) form.append(field, new Blob([new Uint8Array(data)], { type: 'image/jpeg' }), 'me.jpg');
    const request = new Request('http://upload.invalid/', { method: 'POST', body: form });
    return { contentType: request.headers.get('content-type') ?? undefined, body: Readable.from([Buffer.from(await request.arrayBuffer())]) };
  }
  const pictureKeyOf = (userId: string) => h.sql<{ profile_picture_key: string | null }>(`SELECT profile_picture_key FROM identity.users WHERE id = $1`, [userId]);

  it('stores the one picture of a multipart upload; more than one file refuses it all and keeps the old picture', async () => {
    const dto = await verifiedUser();
    const me = caller('203.0.113.9', { userId: userIdOf((await sessions.login(caller(), dto)).access) });
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#2a6f97' } }).jpeg().toBuffer();

    const first = await profiles.setPicture(me, await upload([['picture', jpeg]]));
    expect(first.profile_picture).toMatch(/^\/api\/files\/profile-pictures\//);
    const [before] = await pictureKeyOf(me.userId!);

    const refused = profiles.setPicture(me, await upload(Array.from({ length: 1000 }, (): [string, Buffer] => ['picture', jpeg])));
    await expect(refused).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: PICTURE_UPLOAD_MESSAGES.onlyOne });
    expect(await pictureKeyOf(me.userId!)).toEqual([before]);
  });
});
