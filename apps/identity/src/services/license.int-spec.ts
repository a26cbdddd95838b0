import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { PROVIDER_MESSAGES, type RegisterDto } from '@medfolio/contracts';
import { FakeNppes, NPPES_SAMPLES, refusal } from '@medfolio/testing';
import { caller, IdentityHarness } from '../testing/identity-harness';
import { AccountService } from './account.service';
import { LicenseService } from './license.service';
import { ProfileService } from './profile.service';
import { SessionService } from './session.service';

/**
 * Licence verification against a local stand-in answering as the NPPES NPI Registry API does
 * (real HTTP), on a real PostgreSQL database: found individual, organisation, not found, name
 * mismatch, 5xx, time-out, a malformed number that never leaves, a number claimed twice, the
 * per-account limit, and the role in the next token and on the profile.
 */
const h = new IdentityHarness();
let nppes: FakeNppes;
let accounts: AccountService;
let sessions: SessionService;
let licenses: LicenseService;
let profiles: ProfileService;

async function signedIn(firstName: string): Promise<{ userId: string; access: string; refresh: string; as: ReturnType<typeof caller> }> {
  const dto: RegisterDto = { first_name: firstName, last_name: '', phone: '+1 202 555 0143', email: `p-${randomUUID().slice(0, 8)}@example.com`, password: 'correct horse battery', date_of_birth: '1980-04-01' };
  await accounts.register(caller(), dto);
  await accounts.verifyOtp(caller(), { email: dto.email, otp: h.lastMail(dto.email, 'verification-code').data['code']! });
  const tokens = await sessions.login(caller(), { email: dto.email, password: dto.password });
  const userId = decodeJwt(tokens.access).sub!;
  return { userId, ...tokens, as: caller('203.0.113.9', { userId, roles: ['patient'] }) };
}

beforeAll(async () => {
  nppes = await FakeNppes.start();
  await h.start({ NPI_REGISTRY_URL: nppes.url, NPI_REGISTRY_TIMEOUT_MS: '500', LICENSE_ATTEMPTS_PER_HOUR: '4' });
  accounts = h.get(AccountService);
  sessions = h.get(SessionService);
  licenses = h.get(LicenseService);
  profiles = h.get(ProfileService);
}, 60_000);

afterAll(async () => {
  await h.stop();
  await nppes.stop();
});

beforeEach(() => {
  nppes.outage = 'none';
});

describe('licence verification against the NPPES stand-in', () => {
  it('verifies a matching individual: facts stored, the role on the profile and in the next token', async () => {
    const ana = await signedIn('Ána María Ruiz');
    expect(decodeJwt(ana.access)['roles']).toEqual(['patient']);
    const reply = await licenses.verify(ana.as, { license_number: NPPES_SAMPLES.ana.number });
    expect(reply).toEqual({
      message: PROVIDER_MESSAGES.verified,
      provider: expect.objectContaining({ npi: '1234567893', registry: 'nppes', first_name: 'ANA', last_name: 'RUIZ', credential: 'M.D.', specialty: 'Internal Medicine', state: 'CA', display_name: 'Dr Ana Ruiz (NPI 1234567893)', verification: 'self_attested', review: 'pending' }),
    });
    const profile = await profiles.get(ana.as);
    expect(profile.roles).toEqual(['patient', 'provider']);
    expect(profile.provider?.specialty).toBe('Internal Medicine');
    // The access token issued before keeps its roles; the next one (refresh) carries the role.
    expect(decodeJwt(ana.access)['roles']).toEqual(['patient']);
    const refreshed = await sessions.refresh(caller(), ana.refresh);
    expect(decodeJwt(refreshed.access)['roles']).toEqual(['patient', 'provider']);
    await expect(licenses.facts(ana.as)).resolves.toMatchObject({ npi: '1234567893' });
    // Verifying again is fine (same account, same number).
    await expect(licenses.verify(ana.as, { license_number: NPPES_SAMPLES.ana.number })).resolves.toMatchObject({ message: PROVIDER_MESSAGES.verified });
  });

  it('refuses the same NPI on another account with the same name', async () => {
    const other = await signedIn('Ana Ruiz');
    expect(await refusal(licenses.verify(other.as, { license_number: NPPES_SAMPLES.ana.number }))).toMatchObject({ code: 'CONFLICT', message: PROVIDER_MESSAGES.claimedDisputable });
    expect((await profiles.get(other.as)).roles).toEqual(['patient']);
  });

  it('refuses an organisation, an unknown number and a name that does not match', async () => {
    const john = await signedIn('John Smith');
    expect(await refusal(licenses.verify(john.as, { license_number: NPPES_SAMPLES.clinic.number }))).toMatchObject({ code: 'VALIDATION_FAILED', message: PROVIDER_MESSAGES.organisation });
    expect(await refusal(licenses.verify(john.as, { license_number: '1111111112' }))).toMatchObject({ code: 'NOT_FOUND', message: PROVIDER_MESSAGES.notFound });
    const bob = await signedIn('Bob Jones');
    expect(await refusal(licenses.verify(bob.as, { license_number: NPPES_SAMPLES.john.number }))).toMatchObject({ code: 'VALIDATION_FAILED', message: PROVIDER_MESSAGES.nameMismatch });
    await expect(licenses.facts(bob.as)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await h.sql(`SELECT 1 FROM identity.provider_licenses WHERE user_id = $1`, [bob.userId])).toHaveLength(0);
  });

  it('a number with a wrong check digit never reaches the registry', async () => {
    const john = await signedIn('John Smith');
    const before = nppes.lookups.length;
    expect(await refusal(licenses.verify(john.as, { license_number: '1003000127' }))).toMatchObject({ code: 'NOT_FOUND', message: PROVIDER_MESSAGES.notFound });
    expect(await refusal(licenses.verify(john.as, { license_number: '12345678' }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(nppes.lookups.length).toBe(before);
  });

  it('a registry answering 5xx or not at all is "try again later", not "not found"', async () => {
    const john = await signedIn('John Smith');
    nppes.outage = 'error';
    expect(await refusal(licenses.verify(john.as, { license_number: NPPES_SAMPLES.john.number }))).toMatchObject({ code: 'UNAVAILABLE', message: PROVIDER_MESSAGES.unavailable });
    nppes.outage = 'hang';
    const started = Date.now();
    expect(await refusal(licenses.verify(john.as, { license_number: NPPES_SAMPLES.john.number }))).toMatchObject({ code: 'UNAVAILABLE', message: PROVIDER_MESSAGES.unavailable });
    expect(Date.now() - started).toBeLessThan(5000);
    nppes.outage = 'none';
    await expect(licenses.verify(john.as, { license_number: NPPES_SAMPLES.john.number })).resolves.toMatchObject({ provider: { specialty: 'Family Medicine', state: 'TX', credential: 'DO' } });
  });

  it('limits attempts per account (LICENSE_ATTEMPTS_PER_HOUR = 4 here), whatever their outcome', async () => {
    const bob = await signedIn('Bob Jones');
    for (let i = 0; i < 4; i++) await expect(licenses.verify(bob.as, { license_number: '1111111112' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await refusal(licenses.verify(bob.as, { license_number: '1111111112' }))).toMatchObject({ code: 'RATE_LIMITED' });
    // Another account is not affected.
    const john = await signedIn('John Smith');
    await expect(licenses.verify(john.as, { license_number: '1111111112' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
