import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { CallerIdentity, DomainError, PlanId } from '@medfolio/contracts';
import { PlansRepository } from '../repositories/plans.repository';
import { AccountService } from '../services/account.service';
import { SessionService } from '../services/session.service';
import { caller, IdentityHarness } from '../testing/identity-harness';
import { FamilyClaimsService } from './family-claims.service';
import { FamilyReminders } from './family-reminders';
import { FAMILY_CLOCK } from './family-rules';
import { FamilyService } from './family.service';

/**
 * A dependant's own sign-in on real PostgreSQL, with a clock the test moves: the claim link (its
 * age rules and grace), the account created with the record's id, the teen's assent (kept, and
 * declined: every grant ends and the guardian is e-mailed), a co-parent invited as guardian, and
 * the guardian's one "turns 18 soon" e-mail.
 */
const clock = { t: new Date('2026-06-01T12:00:00Z'), now() { return this.t; } };
const plans = new Map<string, PlanId>();
const h = new IdentityHarness();
let family: FamilyService;
let claims: FamilyClaimsService;
let reminders: FamilyReminders;

const code = (promise: Promise<unknown>) => promise.then(() => 'ok', (e: DomainError) => e.code);
const message = (promise: Promise<unknown>) => promise.then(() => 'ok', (e: DomainError) => e.message);
const as = (userId: string): CallerIdentity => caller(undefined, { userId, roles: ['patient'] });
const PASSWORD = 'correct horse battery';

async function signUp(name: string): Promise<{ id: string; email: string }> {
  const email = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
  const accounts = h.get(AccountService);
  await accounts.register(caller(), { first_name: name, phone: '+1 202 555 0143', email, password: PASSWORD, date_of_birth: '1984-03-03' });
  await accounts.verifyOtp(caller(), { email, otp: h.lastMail(email, 'verification-code').data['code']! });
  const id = decodeJwt((await h.get(SessionService).login(caller(), { email, password: PASSWORD })).access).sub!;
  return { id, email };
}

const claimToken = (to: string) => h.lastMail(to, 'family-claim-invite').data['claim_url']!.split('/family/claim/')[1]!;
const inviteToken = (to: string) => h.lastMail(to, 'family-invite').data['accept_url']!.split('/family/invite/')[1]!;

beforeAll(async () => {
  await h.start({ FAMILY_REMINDER_DAYS: '30', FAMILY_INVITE_DAYS: '7', FAMILY_CLAIM_GRACE_DAYS: '90', PUBLIC_BASE_URL: 'https://app.example.test' }, (b) =>
    b
      .overrideProvider(FAMILY_CLOCK)
      .useValue(clock)
      .overrideProvider(PlansRepository)
      .useValue({ planOf: async (c: CallerIdentity) => plans.get(c.userId!) ?? 'free' }),
  );
  family = h.get(FamilyService);
  claims = h.get(FamilyClaimsService);
  reminders = h.get(FamilyReminders);
}, 60_000);

afterAll(() => h.stop());

describe("a dependant's own sign-in", () => {
  let gina: { id: string; email: string };
  let carl: { id: string; email: string };
  let vic: { id: string; email: string };
  let tess: string;
  let kid: string;
  let tia: string;
  const tessEmail = `tess-${randomUUID().slice(0, 8)}@example.com`;

  beforeAll(async () => {
    [gina, carl, vic] = [await signUp('Gina'), await signUp('Carl'), await signUp('Vic')];
    plans.set(gina.id, 'pro');
    tess = (await family.addDependant(as(gina.id), { first_name: 'Tess', last_name: 'Example', date_of_birth: '2011-02-02' })).patient_id;
    kid = (await family.addDependant(as(gina.id), { first_name: 'Kid', last_name: 'Example', date_of_birth: '2018-08-08' })).patient_id;
    tia = (await family.addDependant(as(gina.id), { first_name: 'Tia', last_name: 'Example', date_of_birth: '2010-10-10' })).patient_id;
  });

  it('sends the claim link only to a dependant of 13 or more, only as their guardian', async () => {
    expect(await message(claims.invite(as(gina.id), { member_id: kid, email: 'kid@example.com' }))).toBe('Kid can have their own sign-in from their 13th birthday.');
    expect(await code(claims.invite(as(carl.id), { member_id: tess, email: tessEmail }))).toBe('NOT_FOUND');
    expect(await code(claims.invite({ ...as(tess), actor: { userId: gina.id, role: 'guardian' } }, { member_id: tess, email: tessEmail }))).toBe('FORBIDDEN');
    const first = await claims.invite(as(gina.id), { member_id: tess, email: 'old-address@example.com' });
    const sent = await claims.invite(as(gina.id), { member_id: tess, email: tessEmail });
    expect(sent).toMatchObject({ patient_id: tess, email: tessEmail, status: 'pending' });
    expect(h.lastMail(tessEmail, 'family-claim-invite').data).toMatchObject({ inviter_name: 'Gina', patient_name: 'Tess', expires_on: '2026-06-08' });
    // The newer link replaced the first one; tokens are kept only as hashes.
    const rows = await h.sql<{ id: string; token_hash: string; replaced_at: Date | null }>(`SELECT id, token_hash, replaced_at FROM identity.family_claims WHERE patient_id = $1`, [tess]);
    expect(rows.find((r) => r.id === first.id)?.replaced_at).not.toBeNull();
    expect(rows.map((r) => r.token_hash)).not.toContain(claimToken(tessEmail));
    expect(await code(claims.preview({ token: claimToken('old-address@example.com') }))).toBe('NOT_FOUND');
    const overview = await family.overview(as(gina.id));
    expect(overview.members.find((m) => m.id === tess)).toMatchObject({ sign_in: 'invited', assent: null });
  });

  it("creates the teen's account with the record's id and the invited address; the link works once", async () => {
    const token = claimToken(tessEmail);
    expect(await claims.preview({ token })).toMatchObject({ patient_first_name: 'Tess', inviter_first_name: 'Gina', email: tessEmail });
    expect(await claims.claim(caller(), { token, password: 'tess horse battery' })).toEqual({ message: expect.stringMatching(/^Welcome, Tess/) });
    const [user] = await h.sql<{ id: string; email_verified: boolean; password_hash: string; first_name: string; date_of_birth: string }>(
      `SELECT id, email_verified, password_hash, first_name, to_char(date_of_birth, 'YYYY-MM-DD') AS date_of_birth FROM identity.users WHERE email_normalized = $1`,
      [tessEmail],
    );
    expect(user).toMatchObject({ id: tess, email_verified: true, first_name: 'Tess', date_of_birth: '2011-02-02' });
    expect(user!.password_hash).toMatch(/^\$argon2id\$/);
    const signedIn = await h.get(SessionService).login(caller(), { email: tessEmail, password: 'tess horse battery' });
    expect(decodeJwt(signedIn.access).sub).toBe(tess);
    expect(await code(claims.claim(caller(), { token, password: 'tess horse battery' }))).toBe('NOT_FOUND');
    // She is the owner of her record; her guardian keeps access until she answers.
    expect(await family.access(as(tess), { patient_id: tess, needed: 'manage' })).toEqual({ role: 'owner', patient_first_name: 'Tess' });
    expect((await family.access(as(gina.id), { patient_id: tess, needed: 'manage' })).role).toBe('guardian');
    expect((await family.overview(as(gina.id))).members.find((m) => m.id === tess)).toMatchObject({ sign_in: 'signed-in', assent: 'pending' });
    expect(await message(claims.invite(as(gina.id), { member_id: tess, email: tessEmail }))).toBe('Tess already has their own sign-in.');
    const registered = await h.sql<{ n: number }>(`SELECT 1 AS n FROM identity.outbox WHERE subject = 'identity.user.registered.v1' AND payload::text LIKE $1`, [`%${tess}%`]);
    expect(registered).toHaveLength(1);
  });

  it('keeps the guardian when the teen assents; the answer stands', async () => {
    const asked = await claims.assent(as(tess));
    expect(asked).toMatchObject({ status: 'pending', proxies: [{ first_name: 'Gina', role: 'guardian' }] });
    expect(await code(claims.answer({ ...as(tess), actor: { userId: gina.id, role: 'guardian' } }, { keep_access: true }))).toBe('FORBIDDEN');
    expect((await claims.answer(as(tess), { keep_access: true })).status).toBe('given');
    expect((await family.access(as(gina.id), { patient_id: tess, needed: 'view' })).role).toBe('guardian');
    expect(await code(claims.answer(as(gina.id), { keep_access: false }))).toBe('VALIDATION_FAILED');
  });

  it("ends every grant on the record when the teen declines, and tells the guardian", async () => {
    await family.invite(as(gina.id), { patient_id: tia, email: vic.email, role: 'view' });
    await family.acceptInvite(as(vic.id), { token: inviteToken(vic.email) });
    const tiaEmail = `tia-${randomUUID().slice(0, 8)}@example.com`;
    await claims.invite(as(gina.id), { member_id: tia, email: tiaEmail });
    await claims.claim(caller(), { token: claimToken(tiaEmail), password: 'tia horse battery' });
    expect((await claims.assent(as(tia))).proxies.map((p) => p.first_name)).toEqual(['Gina', 'Vic']);
    const answered = await claims.answer(as(tia), { keep_access: false });
    expect(answered).toMatchObject({ status: 'declined', proxies: [] });
    expect(await message(family.access(as(gina.id), { patient_id: tia, needed: 'view' }))).toBe('You do not have access to this record.');
    expect(await message(family.access(as(vic.id), { patient_id: tia, needed: 'view' }))).toBe('You do not have access to this record.');
    expect(h.lastMail(gina.email, 'family-assent-declined').data).toMatchObject({ first_name: 'Gina', patient_name: 'Tia' });
    expect(h.mail.some((m) => m.to === vic.email && m.template === 'family-assent-declined')).toBe(false);
    const live = await h.sql(`SELECT id FROM identity.family_grants WHERE patient_id = $1 AND revoked_at IS NULL`, [tia]);
    expect(live).toHaveLength(0);
    // A declined answer stands; accepting afterwards changes nothing.
    expect((await claims.answer(as(tia), { keep_access: true })).status).toBe('declined');
  });

  it('lets a guardian invite a co-parent as a second guardian, until the 18th birthday', async () => {
    expect(await code(family.invite(as(gina.id), { patient_id: gina.id, email: carl.email, role: 'guardian' }))).toBe('VALIDATION_FAILED');
    await family.invite(as(gina.id), { patient_id: kid, email: carl.email, role: 'guardian' });
    const record = await family.acceptInvite(as(carl.id), { token: inviteToken(carl.email) });
    expect(record).toMatchObject({ patient_id: kid, kind: 'dependant', my_role: 'guardian', access_expires_at: '2036-08-08T00:00:00.000Z' });
    expect(await family.access(as(carl.id), { patient_id: kid, needed: 'manage' })).toEqual({ role: 'guardian', patient_first_name: 'Kid' });
    // Same rights: Carl administers Kid's record (invites), and sees Gina among its guardians.
    expect((await family.invite(as(carl.id), { patient_id: kid, email: 'grandma@example.com', role: 'view' })).status).toBe('pending');
    // But erasing Kid's record stays with Gina, who added Kid (her plan holds the record).
    expect(await message(family.removeMember(as(carl.id), { member_id: kid, confirm_name: 'Kid' }))).toBe("Only the person who added Kid can remove Kid's record.");
    const carlView = await family.overview(as(carl.id));
    expect(carlView.members.find((m) => m.patient_id === kid && m.role === 'guardian' && m.kind === 'caregiver')).toMatchObject({ name: 'Gina', first_guardian: true });
    expect((await family.overview(as(gina.id))).members.find((m) => m.patient_id === kid && m.role === 'guardian' && m.kind === 'caregiver')).toMatchObject({ name: 'Carl', first_guardian: false });
    // A caregiver cannot give the guardian role.
    await family.invite(as(gina.id), { patient_id: kid, email: vic.email, role: 'view' });
    await family.acceptInvite(as(vic.id), { token: inviteToken(vic.email) });
    expect(await code(family.invite(as(vic.id), { patient_id: kid, email: 'someone@example.com', role: 'guardian' }))).toBe('FORBIDDEN');

    // The guardian who added Kid cannot be revoked by the co-parent; the co-parent can be revoked, or leave.
    const grants = await h.sql<{ id: string; grantee_user_id: string }>(`SELECT id, grantee_user_id FROM identity.family_grants WHERE patient_id = $1 AND role = 'guardian' AND revoked_at IS NULL`, [kid]);
    const ginaGrant = grants.find((g) => g.grantee_user_id === gina.id)!.id;
    const carlGrant = grants.find((g) => g.grantee_user_id === carl.id)!.id;
    expect(await message(family.removeMember(as(carl.id), { member_id: ginaGrant }))).toMatch(/guardian's access cannot be revoked/);
    expect(await message(family.removeMember(as(gina.id), { member_id: ginaGrant }))).toMatch(/guardian's access cannot be revoked/);
    expect((await family.removeMember(as(gina.id), { member_id: carlGrant })).message).toBe('Access revoked.');
    expect(await code(family.access(as(carl.id), { patient_id: kid, needed: 'view' }))).toBe('FORBIDDEN');
    await family.invite(as(gina.id), { patient_id: kid, email: carl.email, role: 'guardian' });
    await family.acceptInvite(as(carl.id), { token: inviteToken(carl.email) });
    const again = (await h.sql<{ id: string }>(`SELECT id FROM identity.family_grants WHERE patient_id = $1 AND grantee_user_id = $2 AND revoked_at IS NULL`, [kid, carl.id]))[0]!.id;
    expect((await family.removeMember(as(carl.id), { member_id: again })).message).toBe("You no longer have access to Kid's record.");
    expect(await code(family.access(as(carl.id), { patient_id: kid, needed: 'view' }))).toBe('FORBIDDEN');
    expect((await family.access(as(gina.id), { patient_id: kid, needed: 'manage' })).role).toBe('guardian');
  });

  it("e-mails the guardian once, 30 days before the 18th birthday; after it, the link may be sent for the grace days only", async () => {
    // Tess turns 18 on 2029-02-02. Her guardian grant still runs (she assented).
    const before = h.mail.filter((m) => m.template === 'family-coming-of-age').length;
    clock.t = new Date('2029-01-01T23:59:00Z');
    expect(await reminders.sendComingOfAge()).toBe(0);
    clock.t = new Date('2029-01-03T12:00:00Z');
    expect(await reminders.sendComingOfAge()).toBe(1);
    expect(h.lastMail(gina.email, 'family-coming-of-age').data).toMatchObject({ first_name: 'Gina', patient_name: 'Tess', birthday: '2029-02-02' });
    expect(await reminders.sendComingOfAge()).toBe(0);
    expect(h.mail.filter((m) => m.template === 'family-coming-of-age').length).toBe(before + 1);

    // An unclaimed dependant who turned 18: the former guardian may still send the claim link for 90 days.
    const late = (await family.addDependant(as(gina.id), { first_name: 'Lou', last_name: 'Example', date_of_birth: '2011-03-03' })).patient_id;
    clock.t = new Date('2029-03-03T00:00:00Z');
    expect(await message(family.access(as(gina.id), { patient_id: late, needed: 'view' }))).toBe('You do not have access to this record.');
    expect((await claims.invite(as(gina.id), { member_id: late, email: 'lou@example.com' })).status).toBe('pending');
    clock.t = new Date('2029-06-01T00:00:00Z');
    expect(await message(claims.invite(as(gina.id), { member_id: late, email: 'lou@example.com' }))).toMatch(/turned 18 too long ago/);
  });

  it('refuses a claim with an address that already has an account, keeping nothing', async () => {
    clock.t = new Date('2026-07-01T00:00:00Z');
    const mia = (await family.addDependant(as(gina.id), { first_name: 'Mia', last_name: 'Example', date_of_birth: '2012-01-01' })).patient_id;
    await claims.invite(as(gina.id), { member_id: mia, email: carl.email });
    const token = claimToken(carl.email);
    expect(await code(claims.claim(caller(), { token, password: 'mia horse battery' }))).toBe('CONFLICT');
    expect(await h.sql(`SELECT id FROM identity.users WHERE id = $1`, [mia])).toHaveLength(0);
    expect(await h.sql(`SELECT id FROM identity.dependants WHERE id = $1 AND claimed_at IS NULL`, [mia])).toHaveLength(1);
    expect((await claims.preview({ token })).patient_first_name).toBe('Mia');
  });
});
