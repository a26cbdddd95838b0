import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { DomainError, RegisterDto } from '@medfolio/contracts';
import { caller, IdentityHarness } from '../testing/identity-harness';
import { AccountService } from './account.service';
import { ProfileService } from './profile.service';
import { SessionService } from './session.service';

/**
 * identity.user.patient-identity: the summary service's read of a patient's current name
 * and date of birth, for what the patient shares. Service to service; on real PostgreSQL and NATS.
 */
const h = new IdentityHarness();
let accounts: AccountService;
let sessions: SessionService;
let profiles: ProfileService;

beforeAll(async () => {
  await h.start();
  accounts = h.get(AccountService);
  sessions = h.get(SessionService);
  profiles = h.get(ProfileService);
}, 60_000);

afterAll(() => h.stop());

it("answers the account's current name and date of birth, and NOT_FOUND for an unknown id", async () => {
  const dto: RegisterDto = {
    first_name: 'Ada',
    phone: '+1 202 555 0143',
    email: `ada-${randomUUID().slice(0, 8)}@example.com`,
    password: 'correct horse battery',
    date_of_birth: '1980-04-02',
  };
  await accounts.register(caller(), dto);
  await accounts.verifyOtp(caller(), { email: dto.email, otp: h.lastMail(dto.email, 'verification-code').data['code']! });
  const userId = decodeJwt((await sessions.login(caller(), { email: dto.email, password: dto.password })).access).sub!;

  // No family name given: an empty one, not "undefined".
  expect(await profiles.patientIdentity({ user_id: userId })).toEqual({ first_name: 'Ada', last_name: '', date_of_birth: '1980-04-02' });

  await profiles.update(caller(undefined, { userId }), { first_name: 'Adah', last_name: 'Example', phone: '+1 202 555 0143' });
  expect(await profiles.patientIdentity({ user_id: userId })).toEqual({ first_name: 'Adah', last_name: 'Example', date_of_birth: '1980-04-02' });

  expect(await profiles.patientIdentity({ user_id: randomUUID() }).then(() => 'ok', (e: DomainError) => e.code)).toBe('NOT_FOUND');
});
