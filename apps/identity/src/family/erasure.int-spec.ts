import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { ERASURE_SUBJECTS, FAMILY_MESSAGES, FAMILY_SERVICE_SUBJECTS, type CallerIdentity, type DomainError, type PlanId } from '@medfolio/contracts';
import { PlansRepository } from '../repositories/plans.repository';
import { AccountService } from '../services/account.service';
import { ProfileService } from '../services/profile.service';
import { SessionService } from '../services/session.service';
import { caller, IdentityHarness } from '../testing/identity-harness';
import { FAMILY_CLOCK } from './family-rules';
import { FamilyService } from './family.service';

/**
 * Removing a dependant (their record erased) on real PostgreSQL: only the guardian, with the first
 * name typed to confirm; at once the record is not listed, nobody has access, every grant and
 * invitation on it has ended and the name is gone; the erasure and the household change are in the
 * outbox (the IDENTITY stream), once, whatever is repeated.
 */
const clock = { t: new Date('2026-06-01T12:00:00Z'), now() { return this.t; } };
const h = new IdentityHarness();
let family: FamilyService;

const refusal = (promise: Promise<unknown>) => promise.then(() => ({ code: 'ok', message: '' }), (e: DomainError) => ({ code: e.code, message: e.message }));
const as = (userId: string): CallerIdentity => caller(undefined, { userId, roles: ['patient'] });

async function signUp(name: string): Promise<{ id: string; email: string }> {
  const email = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
  const accounts = h.get(AccountService);
  await accounts.register(caller(), { first_name: name, phone: '+1 202 555 0143', email, password: 'correct horse battery', date_of_birth: '1984-03-03' });
  await accounts.verifyOtp(caller(), { email, otp: h.lastMail(email, 'verification-code').data['code']! });
  const id = decodeJwt((await h.get(SessionService).login(caller(), { email, password: 'correct horse battery' })).access).sub!;
  return { id, email };
}

beforeAll(async () => {
  await h.start({ PUBLIC_BASE_URL: 'https://app.example.test' }, (b) =>
    b.overrideProvider(FAMILY_CLOCK).useValue(clock).overrideProvider(PlansRepository).useValue({ planOf: async (): Promise<PlanId> => 'pro' }),
  );
  family = h.get(FamilyService);
}, 60_000);
afterAll(() => h.stop());

const outbox = (subject: string, patientId: string) =>
  h.sql<{ payload: Record<string, unknown> }>(`SELECT payload FROM identity.outbox WHERE subject = $1 AND payload->>'patient_id' = $2`, [subject, patientId]);

it('the guardian removes a dependant: confirmed by first name, ended at once everywhere in identity, the erasure published once', async () => {
  const [ada, ben, cy] = [await signUp('Ada'), await signUp('Ben'), await signUp('Cy')];
  const leo = (await family.addDependant(as(ada.id), { first_name: 'Leo', last_name: 'Example', date_of_birth: '2016-03-10' })).patient_id;
  const mia = (await family.addDependant(as(ada.id), { first_name: 'Mia', last_name: 'Example', date_of_birth: '2018-05-01' })).patient_id;
  // Ben manages Leo's record; Cy has a pending invitation to it.
  await family.invite(as(ada.id), { patient_id: leo, email: ben.email, role: 'manage' });
  await family.acceptInvite(as(ben.id), { token: h.lastMail(ben.email, 'family-invite').data['accept_url']!.split('/family/invite/')[1]! });
  await family.invite(as(ada.id), { patient_id: leo, email: cy.email, role: 'view' });

  // Only the guardian: a caregiver with manage is refused (403), a stranger does not see it (404).
  expect(await refusal(family.removeMember(as(ben.id), { member_id: leo, confirm_name: 'Leo' }))).toEqual({ code: 'FORBIDDEN', message: FAMILY_MESSAGES.onlyGuardianRemoves('Leo') });
  expect(await refusal(family.removeMember(as(cy.id), { member_id: leo, confirm_name: 'Leo' }))).toEqual({ code: 'NOT_FOUND', message: FAMILY_MESSAGES.notYourMember });
  // The first name typed to confirm: missing or wrong is a 400 that changes nothing.
  expect(await refusal(family.removeMember(as(ada.id), { member_id: leo }))).toEqual({ code: 'VALIDATION_FAILED', message: FAMILY_MESSAGES.confirmNameNeeded('Leo') });
  expect(await refusal(family.removeMember(as(ada.id), { member_id: leo, confirm_name: 'Mia' }))).toEqual({ code: 'VALIDATION_FAILED', message: FAMILY_MESSAGES.confirmNameWrong('Leo') });
  expect(await family.access(as(ben.id), { patient_id: leo, needed: 'manage' })).toMatchObject({ role: 'manage' });
  expect(await outbox(ERASURE_SUBJECTS.erased, leo)).toEqual([]);

  const answer = await family.removeMember(as(ada.id), { member_id: leo, confirm_name: '  leo ' });
  expect(answer).toEqual({ message: FAMILY_MESSAGES.erasing('Leo'), accepted: true, erased_at: clock.t.toISOString() });

  // At once: nobody has access (the guardian, the caregiver), the record is not listed, no invitation is pending, no name is kept.
  for (const who of [ada.id, ben.id]) expect(await refusal(family.access(as(who), { patient_id: leo, needed: 'view' }))).toEqual({ code: 'FORBIDDEN', message: FAMILY_MESSAGES.noAccess });
  const overview = await family.overview(as(ada.id));
  expect(overview.records.map((r) => r.first_name).sort()).toEqual(['Ada', 'Mia']);
  expect(overview.members.filter((m) => m.patient_id === leo)).toEqual([]);
  expect(overview.invites.filter((i) => i.patient_id === leo)).toEqual([]);
  expect((await family.overview(as(ben.id))).records.map((r) => r.first_name)).toEqual(['Ben']);
  expect(await refusal(h.get(ProfileService).patientIdentity({ user_id: leo }))).toMatchObject({ code: 'NOT_FOUND' });
  expect(await h.sql(`SELECT first_name, last_name, date_of_birth FROM identity.dependants WHERE id = $1 AND erased_at IS NOT NULL`, [leo])).toEqual([{ first_name: '', last_name: '', date_of_birth: null }]);
  expect(await h.sql(`SELECT 1 FROM identity.family_grants WHERE patient_id = $1 AND revoked_at IS NULL`, [leo])).toEqual([]);
  expect(await h.sql(`SELECT 1 FROM identity.family_invites WHERE patient_id = $1 AND withdrawn_at IS NULL AND accepted_at IS NULL`, [leo])).toEqual([]);

  // The erasure and the household change, for the services (IDENTITY stream through the outbox).
  expect((await outbox(ERASURE_SUBJECTS.erased, leo)).map((r) => r.payload)).toEqual([{ patient_id: leo, erased_at: clock.t.toISOString(), erased_by: ada.id }]);
  expect((await outbox(FAMILY_SERVICE_SUBJECTS.householdChanged, leo)).map((r) => r.payload['holder_id'])).toEqual([ada.id, null]);

  // Again: the member is gone (404), and nothing more is published. Mia, Ada and Ben are untouched.
  expect(await refusal(family.removeMember(as(ada.id), { member_id: leo, confirm_name: 'Leo' }))).toEqual({ code: 'NOT_FOUND', message: FAMILY_MESSAGES.notYourMember });
  expect(await outbox(ERASURE_SUBJECTS.erased, leo)).toHaveLength(1);
  expect(await family.access(as(ada.id), { patient_id: mia, needed: 'manage' })).toEqual({ role: 'guardian', patient_first_name: 'Mia' });
  expect(await outbox(ERASURE_SUBJECTS.erased, mia)).toEqual([]);
  expect(await h.get(ProfileService).patientIdentity({ user_id: ada.id })).toMatchObject({ first_name: 'Ada' });
});
