import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { CallerIdentity, DomainError, PlanId } from '@medfolio/contracts';
import { PlansRepository } from '../repositories/plans.repository';
import { AccountService } from '../services/account.service';
import { ProfileService } from '../services/profile.service';
import { SessionService } from '../services/session.service';
import { caller, IdentityHarness } from '../testing/identity-harness';
import { FamilyReminders } from './family-reminders';
import { FAMILY_CLOCK } from './family-rules';
import { FamilyService } from './family.service';

/**
 * Households on real PostgreSQL: dependants, invitations, grants, the gateway's access check, the
 * age rules and expiry with a clock the test moves, reminders. The plan comes from billing over
 * request/reply: that boundary answers what the test says (like the e-mail one, which records).
 */
const clock = { t: new Date('2026-06-01T12:00:00Z'), now() { return this.t; } };
const plans = new Map<string, PlanId>();
const h = new IdentityHarness();
let family: FamilyService;
let reminders: FamilyReminders;

const code = (promise: Promise<unknown>) => promise.then(() => 'ok', (e: DomainError) => e.code);
const message = (promise: Promise<unknown>) => promise.then(() => 'ok', (e: DomainError) => e.message);
const as = (userId: string): CallerIdentity => caller(undefined, { userId, roles: ['patient'] });

async function signUp(name: string): Promise<{ id: string; email: string }> {
  const email = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
  const accounts = h.get(AccountService);
  await accounts.register(caller(), { first_name: name, phone: '+1 202 555 0143', email, password: 'correct horse battery', date_of_birth: '1984-03-03' });
  await accounts.verifyOtp(caller(), { email, otp: h.lastMail(email, 'verification-code').data['code']! });
  const id = decodeJwt((await h.get(SessionService).login(caller(), { email, password: 'correct horse battery' })).access).sub!;
  return { id, email };
}

const tokenOf = (url: string) => url.split('/family/invite/')[1]!;

beforeAll(async () => {
  await h.start({ FAMILY_PROXY_MONTHS: '18', FAMILY_REMINDER_DAYS: '30', FAMILY_INVITE_DAYS: '7', PUBLIC_BASE_URL: 'https://app.example.test' }, (b) =>
    b
      .overrideProvider(FAMILY_CLOCK)
      .useValue(clock)
      .overrideProvider(PlansRepository)
      .useValue({ planOf: async (c: CallerIdentity) => plans.get(c.userId!) ?? 'free' }),
  );
  family = h.get(FamilyService);
  reminders = h.get(FamilyReminders);
}, 60_000);

afterAll(() => h.stop());

describe('a household on the Family plan', () => {
  let ada: { id: string; email: string };
  let ben: { id: string; email: string };
  let cy: { id: string; email: string };
  let leo: string;

  beforeAll(async () => {
    [ada, ben, cy] = [await signUp('Ada'), await signUp('Ben'), await signUp('Cy')];
  });

  it('adds a child only on the Family plan, with a valid date of birth; the holder is their guardian', async () => {
    expect(await message(family.addDependant(as(ada.id), { first_name: 'Leo', last_name: 'Example', date_of_birth: '2014-03-10' }))).toMatch(/needs the Family plan/);
    plans.set(ada.id, 'pro');
    expect(await message(family.addDependant(as(ada.id), { first_name: 'Leo', last_name: 'Example', date_of_birth: '2026-06-02' }))).toBe('Date of birth cannot be in the future.');
    expect(await message(family.addDependant(as(ada.id), { first_name: 'Leo', last_name: 'Example', date_of_birth: '2008-06-01' }))).toMatch(/must be under 18/);
    const record = await family.addDependant(as(ada.id), { first_name: 'Leo', last_name: 'Example', date_of_birth: '2014-03-10' });
    leo = record.patient_id;
    expect(record).toMatchObject({ first_name: 'Leo', kind: 'dependant', my_role: 'guardian', age_band: 'child', access_expires_at: '2032-03-10T00:00:00.000Z' });
    expect(await family.access(as(ada.id), { patient_id: leo, needed: 'manage' })).toEqual({ role: 'guardian', patient_first_name: 'Leo' });
    expect(await h.get(ProfileService).patientIdentity({ user_id: leo })).toEqual({ first_name: 'Leo', last_name: 'Example', date_of_birth: '2014-03-10' });
    const events = await h.sql<{ subject: string; payload: unknown }>(`SELECT subject, payload FROM identity.outbox WHERE subject = 'identity.user.household-changed.v1'`);
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events[0]!.payload)).toContain(ada.id);
  });

  it('refuses strangers, and family administration done on behalf of someone else', async () => {
    expect(await message(family.access(as(ben.id), { patient_id: leo, needed: 'view' }))).toBe('You do not have access to this record.');
    expect(await message(family.access(as(ben.id), { patient_id: ada.id, needed: 'view' }))).toBe('You do not have access to this record.');
    expect(await code(family.overview({ ...as(leo), actor: { userId: ada.id, role: 'guardian' } }))).toBe('FORBIDDEN');
    expect(await code(family.invite(as(ben.id), { patient_id: leo, email: 'x@example.com', role: 'view' }))).toBe('FORBIDDEN');
  });

  it("invites a co-parent by e-mail; the link works once, as whoever signs in; view can read, not change", async () => {
    const invite = await family.invite(as(ada.id), { patient_id: leo, email: ben.email, role: 'view' });
    expect(invite).toMatchObject({ patient_id: leo, role: 'view', status: 'pending', expires_at: '2026-06-08T12:00:00.000Z' });
    expect(await code(family.invite(as(ada.id), { patient_id: leo, email: ben.email, role: 'view' }))).toBe('CONFLICT');
    const mail = h.lastMail(ben.email, 'family-invite');
    expect(mail.data).toMatchObject({ inviter_name: 'Ada', patient_name: 'Leo', role: 'view', expires_on: '2026-06-08' });
    expect(mail.data['accept_url']).toMatch(/^https:\/\/app\.example\.test\/family\/invite\/[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(mail.data['accept_url']!);
    const stored = await h.sql<{ token_hash: string }>('SELECT token_hash FROM identity.family_invites WHERE id = $1', [invite.id]);
    expect(stored[0]!.token_hash).not.toContain(token);

    expect(await family.previewInvite({ token })).toEqual({ inviter_first_name: 'Ada', patient_first_name: 'Leo', role: 'view', expires_at: '2026-06-08T12:00:00.000Z' });
    expect(await code(family.acceptInvite(as(ada.id), { token }))).toBe('VALIDATION_FAILED');
    const shared = await family.acceptInvite(as(ben.id), { token });
    expect(shared).toMatchObject({ patient_id: leo, kind: 'shared', my_role: 'view', access_expires_at: '2032-03-10T00:00:00.000Z' });
    expect(await message(family.previewInvite({ token }))).toMatch(/not valid/);
    expect(await code(family.acceptInvite(as(cy.id), { token }))).toBe('NOT_FOUND');

    expect(await family.access(as(ben.id), { patient_id: leo, needed: 'view' })).toEqual({ role: 'view', patient_first_name: 'Leo' });
    expect(await message(family.access(as(ben.id), { patient_id: leo, needed: 'manage' }))).toMatch(/can view Leo's record but not change it/);
    expect(await code(family.access(as(ben.id), { patient_id: ada.id, needed: 'view' }))).toBe('FORBIDDEN');
  });

  it('shows the holder their records, members with last activity, and names the people of a record for its history', async () => {
    const overview = await family.overview(as(ada.id));
    expect(overview.records.map((r) => [r.kind, r.first_name, r.my_role])).toEqual([['self', 'Ada', 'owner'], ['dependant', 'Leo', 'guardian']]);
    const benMember = overview.members.find((m) => m.kind === 'caregiver')!;
    expect(benMember).toMatchObject({ patient_id: leo, name: 'Ben', email: ben.email, role: 'view', status: 'active' });
    expect(benMember.last_active_at).not.toBeNull();
    expect(overview.members.find((m) => m.kind === 'dependant')).toMatchObject({ id: leo, name: 'Leo Example', role: 'guardian' });
    expect((await family.overview(as(ben.id))).records.map((r) => [r.kind, r.first_name])).toEqual([['self', 'Ben'], ['shared', 'Leo']]);
    const names = await family.names({ patient_id: leo, user_ids: [ada.id, ben.id, cy.id] });
    expect(names.people).toEqual(expect.arrayContaining([{ user_id: ada.id, first_name: 'Ada', relation: 'guardian' }, { user_id: ben.id, first_name: 'Ben', relation: 'caregiver' }]));
    expect(names.people.find((p) => p.user_id === cy.id)).toBeUndefined();
  });

  it('changes a role at once, and revokes at once', async () => {
    const benGrant = (await family.overview(as(ada.id))).members.find((m) => m.kind === 'caregiver')!;
    expect(await code(family.updateMember(as(ben.id), { member_id: benGrant.id, role: 'manage' }))).toBe('NOT_FOUND');
    expect((await family.updateMember(as(ada.id), { member_id: benGrant.id, role: 'manage' })).role).toBe('manage');
    expect((await family.access(as(ben.id), { patient_id: leo, needed: 'manage' })).role).toBe('manage');
    expect(await message(family.removeMember(as(ada.id), { member_id: leo }))).toMatch(/type their first name \(Leo\) to confirm/);
    await family.removeMember(as(ada.id), { member_id: benGrant.id });
    expect(await code(family.access(as(ben.id), { patient_id: leo, needed: 'view' }))).toBe('FORBIDDEN');
    expect((await family.names({ patient_id: leo, user_ids: [ben.id] })).people).toEqual([{ user_id: ben.id, first_name: 'Ben', relation: 'former caregiver' }]);
  });

  it('withdraws an invitation: its link stops working', async () => {
    const invite = await family.invite(as(ada.id), { patient_id: leo, email: cy.email, role: 'manage' });
    const token = tokenOf(h.lastMail(cy.email, 'family-invite').data['accept_url']!);
    expect((await family.withdrawInvite(as(ada.id), { invite_id: invite.id })).status).toBe('withdrawn');
    expect(await code(family.acceptInvite(as(cy.id), { token }))).toBe('NOT_FOUND');
  });

  it("gives an adult's caregiver 18 months, reminds the owner a month before, renews, and refuses after the end", async () => {
    await family.invite(as(ada.id), { patient_id: ada.id, email: cy.email, role: 'view' });
    const token = tokenOf(h.lastMail(cy.email, 'family-invite').data['accept_url']!);
    const shared = await family.acceptInvite(as(cy.id), { token });
    expect(shared).toMatchObject({ patient_id: ada.id, my_role: 'view', age_band: 'adult', access_expires_at: '2027-12-01T12:00:00.000Z' });
    const grantId = (await family.overview(as(ada.id))).members.find((m) => m.patient_id === ada.id)!.id;

    expect(await reminders.sendDue()).toBe(0);
    clock.t = new Date('2027-11-10T12:00:00Z');
    expect(await reminders.sendDue()).toBe(1);
    expect(h.lastMail(ada.email, 'family-access-expiring').data).toMatchObject({ first_name: 'Ada', expires_on: '2027-12-01' });
    expect(await reminders.sendDue()).toBe(0);

    const renewed = await family.updateMember(as(ada.id), { member_id: grantId, renew: true });
    expect(renewed.expires_at).toBe('2029-05-10T12:00:00.000Z');
    clock.t = new Date('2029-05-10T12:00:00Z');
    expect(await code(family.access(as(cy.id), { patient_id: ada.id, needed: 'view' }))).toBe('FORBIDDEN');
    expect((await family.overview(as(ada.id))).members.find((m) => m.id === grantId)!.status).toBe('expired');
  });

  it("moves Leo from child to teen at 13, and ends every proxy's access on his 18th birthday, beyond renewal", async () => {
    clock.t = new Date('2027-03-10T00:00:00Z');
    expect((await family.overview(as(ada.id))).records.find((r) => r.patient_id === leo)!.age_band).toBe('teen');
    // A co-parent again, to test the end for caregivers too.
    await family.invite(as(ada.id), { patient_id: leo, email: ben.email, role: 'view' });
    await family.acceptInvite(as(ben.id), { token: tokenOf(h.lastMail(ben.email, 'family-invite').data['accept_url']!) });
    const benGrant = (await family.overview(as(ada.id))).members.find((m) => m.kind === 'caregiver' && m.patient_id === leo && m.status === 'active')!;

    clock.t = new Date('2032-03-09T23:59:59Z');
    expect((await family.access(as(ada.id), { patient_id: leo, needed: 'manage' })).role).toBe('guardian');
    expect((await family.access(as(ben.id), { patient_id: leo, needed: 'view' })).role).toBe('view');
    clock.t = new Date('2032-03-10T00:00:00Z');
    expect(await code(family.access(as(ada.id), { patient_id: leo, needed: 'view' }))).toBe('FORBIDDEN');
    expect(await code(family.access(as(ben.id), { patient_id: leo, needed: 'view' }))).toBe('FORBIDDEN');
    expect(await message(family.updateMember(as(ada.id), { member_id: benGrant.id, renew: true }))).toMatch(/only Leo can give it again/);
    expect((await family.overview(as(ada.id))).records.map((r) => r.kind)).toEqual(['self']);
  });
});
