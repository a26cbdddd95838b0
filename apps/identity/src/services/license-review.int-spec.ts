import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { PROVIDER_MESSAGES, type RegisterDto } from '@medfolio/contracts';
import { AuditRecorder } from '@medfolio/audit-client';
import { FakeNppes, refusal } from '@medfolio/testing';
import { runLicenseReview } from '../license-review-command';
import { isValidNpi } from '../providers/npi';
import { caller, IdentityHarness } from '../testing/identity-harness';
import { AccountService } from './account.service';
import { LicenseReviewService, type ReviewQueue } from './license-review.service';
import { LicenseService } from './license.service';
import { ProfileService } from './profile.service';
import { SessionService } from './session.service';

/**
 * The finding "any account becomes a verified provider", on a real PostgreSQL database
 * and the NPPES stand-in over HTTP: a registry name match only makes a self-attested claim; the
 * operators' `license-review` command verifies or rejects it (audited); a name change drops the
 * claim and the role leaves the next token; the real holder of a claimed number disputes the claim
 * instead of a dead-end 409, and the disputed claim cannot be verified meanwhile.
 */
const h = new IdentityHarness();
let nppes: FakeNppes;
let accounts: AccountService;
let sessions: SessionService;
let licenses: LicenseService;
let profiles: ProfileService;
let reviews: LicenseReviewService;
let audited: jest.SpyInstance;

/** A doctor the registry knows, with a fresh NPI (valid check digit) so tests do not share claims. */
let nextNpi = 200_000_000;
function registryDoctor(first: string, last: string): string {
  for (;;) {
    const base = String(nextNpi++);
    for (let digit = 0; digit <= 9; digit++) {
      const npi = `${base}${digit}`;
      if (!isValidNpi(npi)) continue;
      nppes.add({ number: npi, enumeration_type: 'NPI-1', first_name: first.toUpperCase(), last_name: last.toUpperCase(), credential: 'MD', taxonomies: [{ code: '207R00000X', desc: 'Internal Medicine', state: 'NY', primary: true }] });
      return npi;
    }
  }
}

async function signedIn(firstName: string, lastName = ''): Promise<{ userId: string; email: string; refresh: string; as: ReturnType<typeof caller> }> {
  const dto: RegisterDto = { first_name: firstName, last_name: lastName, phone: '+1 202 555 0143', email: `p-${randomUUID().slice(0, 8)}@example.com`, password: 'correct horse battery', date_of_birth: '1980-04-01' };
  await accounts.register(caller(), dto);
  await accounts.verifyOtp(caller(), { email: dto.email, otp: h.lastMail(dto.email, 'verification-code').data['code']! });
  const tokens = await sessions.login(caller(), { email: dto.email, password: dto.password });
  const userId = decodeJwt(tokens.access).sub!;
  return { userId, email: dto.email, refresh: tokens.refresh, as: caller('203.0.113.9', { userId, roles: ['patient'] }) };
}

/** The roles of the next access token (a refresh), as the gateway would see them. */
async function nextTokenRoles(account: { refresh: string }): Promise<unknown> {
  const refreshed = await sessions.refresh(caller(), account.refresh);
  account.refresh = refreshed.refresh;
  return decodeJwt(refreshed.access)['roles'];
}

/** Runs the operator command as `node main.js license-review ...args` would. */
async function command(...args: string[]): Promise<{ code: number; out: string; error: string }> {
  const out: string[] = [];
  const error: string[] = [];
  const code = await runLicenseReview(reviews, args, {}, { out: (line) => out.push(line), error: (line) => error.push(line) });
  return { code, out: out.join('\n'), error: error.join('\n') };
}

async function queue(): Promise<ReviewQueue> {
  const listed = await command('list');
  expect(listed.code).toBe(0);
  return JSON.parse(listed.out) as ReviewQueue;
}

beforeAll(async () => {
  nppes = await FakeNppes.start([]);
  await h.start({ NPI_REGISTRY_URL: nppes.url, NPI_REGISTRY_TIMEOUT_MS: '2000', LICENSE_ATTEMPTS_PER_HOUR: '50' });
  accounts = h.get(AccountService);
  sessions = h.get(SessionService);
  licenses = h.get(LicenseService);
  profiles = h.get(ProfileService);
  reviews = h.get(LicenseReviewService);
  audited = jest.spyOn(h.get(AuditRecorder), 'record');
}, 60_000);

afterAll(async () => {
  audited.mockRestore();
  await h.stop();
  await nppes.stop();
});

describe('licence claims: self-attested until an operator verifies them', () => {
  it('a registry name match is a self-attested claim: the role (to ask), not "verified"; it waits in the review queue', async () => {
    const npi = registryDoctor('Grace', 'Hopper');
    const grace = await signedIn('Grace', 'Hopper');
    const reply = await licenses.verify(grace.as, { license_number: npi });
    expect(reply.provider).toMatchObject({ npi, verification: 'self_attested', review: 'pending', reviewed_at: null, display_name: `Dr Grace Hopper (NPI ${npi})` });
    expect(await nextTokenRoles(grace)).toEqual(['patient', 'provider']);
    expect((await profiles.get(grace.as)).provider).toMatchObject({ verification: 'self_attested', review: 'pending' });
    expect((await queue()).claims).toEqual(expect.arrayContaining([expect.objectContaining({ user_id: grace.userId, email: grace.email, account_name: 'Grace Hopper', npi, disputed: false })]));
    // Claiming again changes nothing (still pending, not re-queued as new).
    await expect(licenses.verify(grace.as, { license_number: npi })).resolves.toMatchObject({ provider: { verification: 'self_attested' } });
  });

  it('the operator command approves a claim (audited with the operator as actor): verified; decisions need an operator name', async () => {
    const npi = registryDoctor('Alan', 'Turing');
    const alan = await signedIn('Alan', 'Turing');
    await licenses.verify(alan.as, { license_number: npi });

    const anonymous = await command('approve', npi);
    expect(anonymous.code).toBe(2);
    expect(anonymous.error).toContain('--operator');
    expect((await licenses.facts(alan.as)).verification).toBe('self_attested');
    expect((await command('approve', '1111111112', '--operator', 'olga')).code).toBe(1);
    expect((await command('frobnicate', npi, '--operator', 'olga')).code).toBe(2);

    audited.mockClear();
    const approved = await command('approve', npi, '--operator', 'olga', '--note', 'called the practice number in NPPES');
    expect(approved).toMatchObject({ code: 0, out: expect.stringContaining('verified') });
    expect(audited).toHaveBeenCalledWith(
      expect.objectContaining({ userId: 'operator:olga' }),
      expect.objectContaining({ action: 'license.review.approve', entityId: npi, patientId: alan.userId, outcome: 'success' }),
    );
    const facts = await licenses.facts(alan.as);
    expect(facts).toMatchObject({ verification: 'verified', review: 'verified', reviewed_at: expect.any(String) });
    expect((await queue()).claims.map((c) => c.npi)).not.toContain(npi);
    // Approving twice is refused (not pending any more); claiming again keeps "verified".
    expect((await command('approve', npi, '--operator', 'olga')).code).toBe(1);
    await expect(licenses.verify(alan.as, { license_number: npi })).resolves.toMatchObject({ provider: { verification: 'verified' } });
  });

  it('a rejected claim is no role from the next token, and the number cannot be claimed again by that account', async () => {
    const npi = registryDoctor('Ada', 'Byron');
    const ada = await signedIn('Ada', 'Byron');
    await licenses.verify(ada.as, { license_number: npi });
    expect(await nextTokenRoles(ada)).toEqual(['patient', 'provider']);
    expect((await command('reject', npi, '--operator', 'olga', '--note', 'practice does not know her')).code).toBe(0);
    // Her sign-ins end at once (the gateways refuse their access tokens): she signs in again, without the role.
    await expect(sessions.refresh(caller(), ada.refresh)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    const [revoked] = await h.sql<{ n: number }>(`SELECT count(*)::int AS n FROM identity.outbox WHERE subject = 'identity.user.sessions-revoked.v1' AND payload->>'user_id' = $1`, [ada.userId]);
    expect(revoked!.n).toBe(1);
    const again = await sessions.login(caller(), { email: ada.email, password: 'correct horse battery' });
    expect(decodeJwt(again.access)['roles']).toEqual(['patient']);
    expect(await refusal(licenses.facts(ada.as))).toMatchObject({ code: 'NOT_FOUND', message: PROVIDER_MESSAGES.rejected });
    expect((await profiles.get(ada.as)).provider).toBeNull();
    expect(await refusal(licenses.verify(ada.as, { license_number: npi }))).toMatchObject({ code: 'FORBIDDEN', message: PROVIDER_MESSAGES.rejected });
    // The number is free for its real holder.
    const real = await signedIn('Ada', 'Byron');
    await expect(licenses.verify(real.as, { license_number: npi })).resolves.toMatchObject({ provider: { npi, verification: 'self_attested' } });
  });
});

describe('the verified name is locked', () => {
  it('renaming the profile drops the claim: the role leaves the next token, and the real doctor is no longer blocked', async () => {
    // The probe: take a doctor's public name, claim their NPI, get verified, then rename.
    const npi = registryDoctor('Lena', 'Miller');
    const impostor = await signedIn('Lena', 'Miller');
    await licenses.verify(impostor.as, { license_number: npi });
    expect((await command('approve', npi, '--operator', 'olga')).code).toBe(0);
    expect(await nextTokenRoles(impostor)).toEqual(['patient', 'provider']);

    audited.mockClear();
    const renamed = await profiles.update(impostor.as, { first_name: 'Mallory', last_name: 'Evil', phone: '+1 202 555 0143' });
    expect(renamed.roles).toEqual(['patient']);
    expect(renamed.provider).toBeNull();
    expect(audited).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ action: 'license.drop', entityId: npi, patientId: impostor.userId, policy: 'renamed' }));
    expect(await nextTokenRoles(impostor)).toEqual(['patient']);
    expect(await refusal(licenses.facts(impostor.as))).toMatchObject({ code: 'NOT_FOUND' });
    // Renaming back claims nothing by itself: a new claim, self-attested again.
    await profiles.update(impostor.as, { first_name: 'Lena', last_name: 'Miller', phone: '+1 202 555 0143' });
    expect(await nextTokenRoles(impostor)).toEqual(['patient']);

    // Meanwhile the number is free: the real Dr Miller gets no 409.
    const real = await signedIn('Lena', 'Miller');
    await expect(licenses.verify(real.as, { license_number: npi })).resolves.toMatchObject({ provider: { npi } });
  });

  it('other profile changes keep the claim', async () => {
    const npi = registryDoctor('Omar', 'Haddad');
    const omar = await signedIn('Omar', 'Haddad');
    await licenses.verify(omar.as, { license_number: npi });
    const updated = await profiles.update(omar.as, { first_name: 'Omar', last_name: 'Haddad', phone: '+1 202 555 0199' });
    expect(updated.roles).toEqual(['patient', 'provider']);
    expect(await nextTokenRoles(omar)).toEqual(['patient', 'provider']);
  });
});

describe('disputes: the real holder of a claimed number', () => {
  it('gets a way to dispute instead of a dead-end 409; the disputed claim is not verified meanwhile; upheld, the impostor loses the role', async () => {
    const npi = registryDoctor('Nadia', 'Petrova');
    const impostor = await signedIn('Nadia', 'Petrova');
    await licenses.verify(impostor.as, { license_number: npi });
    expect((await command('approve', npi, '--operator', 'olga')).code).toBe(0);
    expect((await licenses.facts(impostor.as)).verification).toBe('verified');

    const real = await signedIn('Nadia', 'Petrova');
    expect(await refusal(licenses.verify(real.as, { license_number: npi }))).toMatchObject({ code: 'CONFLICT', message: PROVIDER_MESSAGES.claimedDisputable });
    audited.mockClear();
    const filed = await licenses.dispute(real.as, { license_number: npi });
    expect(filed).toEqual({ message: PROVIDER_MESSAGES.disputeFiled, dispute_id: expect.any(String) });
    expect(audited).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ action: 'license.dispute', entityId: npi, patientId: real.userId }));
    // Filing twice is one dispute.
    await expect(licenses.dispute(real.as, { license_number: npi })).resolves.toMatchObject({ dispute_id: filed.dispute_id });

    // While it is open the claim is not verified (so no link pre-approves it), whatever its review said.
    expect(await licenses.facts(impostor.as)).toMatchObject({ verification: 'self_attested', review: 'disputed' });
    const open = (await queue()).disputes.find((d) => d.id === filed.dispute_id)!;
    expect(open).toMatchObject({ npi, claimant: { user_id: real.userId, email: real.email }, holder: { user_id: impostor.userId, review: 'verified' } });

    expect((await command('uphold', filed.dispute_id, '--operator', 'olga', '--note', 'ID checked by video call')).code).toBe(0);
    await expect(sessions.refresh(caller(), impostor.refresh)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    const relogged = await sessions.login(caller(), { email: impostor.email, password: 'correct horse battery' });
    expect(decodeJwt(relogged.access)['roles']).toEqual(['patient']);
    expect(await refusal(licenses.facts(impostor.as))).toMatchObject({ code: 'NOT_FOUND', message: PROVIDER_MESSAGES.rejected });
    expect((await command('uphold', filed.dispute_id, '--operator', 'olga')).code).toBe(1);

    // The real holder claims (self-attested), and the operator can verify them.
    await expect(licenses.verify(real.as, { license_number: npi })).resolves.toMatchObject({ provider: { verification: 'self_attested' } });
    expect((await command('approve', npi, '--operator', 'olga')).code).toBe(0);
    expect((await licenses.facts(real.as)).verification).toBe('verified');
  });

  it('a pending claim under dispute cannot be approved until the dispute is decided; dismissed, it can', async () => {
    const npi = registryDoctor('Ivo', 'Novak');
    const holder = await signedIn('Ivo', 'Novak');
    await licenses.verify(holder.as, { license_number: npi });
    const other = await signedIn('Ivo', 'Novak');
    const { dispute_id } = await licenses.dispute(other.as, { license_number: npi });
    expect((await queue()).claims.find((c) => c.npi === npi)).toMatchObject({ disputed: true });
    const refused = await command('approve', npi, '--operator', 'olga');
    expect(refused.code).toBe(1);
    expect(refused.error).toContain('disputed');
    expect((await command('dismiss', dispute_id, '--operator', 'olga')).code).toBe(0);
    expect((await command('approve', npi, '--operator', 'olga')).code).toBe(0);
    expect((await licenses.facts(holder.as)).verification).toBe('verified');
  });

  it('needs the registry name to match, and a number someone else actually claims', async () => {
    const npi = registryDoctor('Mia', 'Wong');
    const stranger = await signedIn('Bob', 'Jones');
    expect(await refusal(licenses.dispute(stranger.as, { license_number: npi }))).toMatchObject({ code: 'VALIDATION_FAILED', message: PROVIDER_MESSAGES.nameMismatch });
    const mia = await signedIn('Mia', 'Wong');
    expect(await refusal(licenses.dispute(mia.as, { license_number: npi }))).toMatchObject({ code: 'VALIDATION_FAILED', message: PROVIDER_MESSAGES.disputeNotNeeded });
    expect(await h.sql(`SELECT 1 FROM identity.provider_license_disputes WHERE license_number = $1`, [npi])).toHaveLength(0);
  });
});
