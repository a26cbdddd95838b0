import { addMonths, ageAt, ageBand, assentPending, birthday, claimAllowed, comingOfAgeReminderDue, dependantBirthProblem, grantExpiry, grantState, reminderDue, renewal } from './family-rules';

const at = (iso: string) => new Date(iso);

describe('family age rules', () => {
  it('counts whole years, the birthday itself included', () => {
    expect(ageAt('2010-06-15', at('2023-06-14T23:59:59Z'))).toBe(12);
    expect(ageAt('2010-06-15', at('2023-06-15T00:00:00Z'))).toBe(13);
  });

  it('puts a person in a band: child under 13, teen 13 to 17, adult from 18', () => {
    expect(ageBand('2014-01-01', at('2026-12-31T12:00:00Z'))).toBe('child');
    expect(ageBand('2013-11-27', at('2026-11-27T00:00:00Z'))).toBe('teen');
    expect(ageBand('2008-11-28', at('2026-11-27T12:00:00Z'))).toBe('teen');
    expect(ageBand('2008-11-27', at('2026-11-27T00:00:00Z'))).toBe('adult');
    expect(ageBand(null, at('2026-11-27T00:00:00Z'))).toBeNull();
  });

  it('takes 1 March as the birthday of someone born on 29 February in other years', () => {
    expect(birthday('2008-02-29', 18).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(birthday('2008-02-29', 16).toISOString()).toBe('2024-02-29T00:00:00.000Z');
  });

  it("ends every grant on a dependant's record on their 18th birthday, and an adult's after the proxy months", () => {
    const now = at('2026-11-27T10:00:00Z');
    expect(grantExpiry({ dependant: true, dateOfBirth: '2015-04-02' }, now, 18).toISOString()).toBe('2033-04-02T00:00:00.000Z');
    expect(grantExpiry({ dependant: false, dateOfBirth: '1950-01-01' }, now, 18).toISOString()).toBe('2028-05-27T10:00:00.000Z');
  });

  it('adds calendar months, the 31st into a shorter month giving its last day', () => {
    expect(addMonths(at('2026-01-31T08:00:00Z'), 1).toISOString()).toBe('2026-02-28T08:00:00.000Z');
    expect(addMonths(at('2026-08-31T08:00:00Z'), 18).toISOString()).toBe('2028-02-29T08:00:00.000Z');
  });

  it('says a grant is active, expired at its end, or revoked', () => {
    const expiresAt = at('2027-01-01T00:00:00Z');
    expect(grantState({ revokedAt: null, expiresAt }, at('2026-12-31T23:59:59Z'))).toBe('active');
    expect(grantState({ revokedAt: null, expiresAt }, at('2027-01-01T00:00:00Z'))).toBe('expired');
    expect(grantState({ revokedAt: at('2026-01-01T00:00:00Z'), expiresAt }, at('2025-01-01T00:00:00Z'))).toBe('revoked');
    expect(grantState({ revokedAt: null, expiresAt: null }, at('2099-01-01T00:00:00Z'))).toBe('active');
  });

  it("renews an adult's grant for the proxy months from now, a teen's until 18, and never a grant past the 18th birthday", () => {
    const now = at('2026-11-27T00:00:00Z');
    expect(renewal({ dependant: false, dateOfBirth: '1960-01-01' }, now, 18)).toEqual({ ok: true, expiresAt: at('2028-05-27T00:00:00Z') });
    expect(renewal({ dependant: true, dateOfBirth: '2010-03-03' }, now, 18)).toEqual({ ok: true, expiresAt: at('2028-03-03T00:00:00Z') });
    expect(renewal({ dependant: true, dateOfBirth: '2008-11-27' }, now, 18)).toEqual({ ok: false });
  });

  it('accepts a dependant born in the past and under 18 only', () => {
    const now = at('2026-11-27T12:00:00Z');
    expect(dependantBirthProblem('2020-05-05', now)).toBeNull();
    expect(dependantBirthProblem('2026-11-27', now)).toBeNull();
    expect(dependantBirthProblem('2026-11-28', now)).toBe('future');
    expect(dependantBirthProblem('2008-11-27', now)).toBe('adult');
    expect(dependantBirthProblem('2008-11-28', now)).toBeNull();
    expect(dependantBirthProblem('2020-02-30', now)).toBe('invalid');
  });

  it('reminds once, within the reminder days before an active grant ends', () => {
    const expiresAt = at('2027-01-10T00:00:00Z');
    expect(reminderDue({ revokedAt: null, expiresAt, reminderSentAt: null }, at('2026-12-01T00:00:00Z'), 30)).toBe(false);
    expect(reminderDue({ revokedAt: null, expiresAt, reminderSentAt: null }, at('2026-12-12T00:00:00Z'), 30)).toBe(true);
    expect(reminderDue({ revokedAt: null, expiresAt, reminderSentAt: at('2026-12-12T00:00:00Z') }, at('2026-12-13T00:00:00Z'), 30)).toBe(false);
    expect(reminderDue({ revokedAt: at('2026-12-01T00:00:00Z'), expiresAt, reminderSentAt: null }, at('2026-12-12T00:00:00Z'), 30)).toBe(false);
    expect(reminderDue({ revokedAt: null, expiresAt, reminderSentAt: null }, at('2027-01-10T00:00:00Z'), 30)).toBe(false);
  });

  describe('a dependant\'s own sign-in', () => {
    const on = { teenSignIn: true, graceDays: 90 };
    const off = { teenSignIn: false, graceDays: 90 };

    it('may be sent from the 13th birthday when teens sign in, from the 18th when they do not', () => {
      expect(claimAllowed('2013-11-28', at('2026-11-27T23:59:59Z'), on)).toBe('too-young');
      expect(claimAllowed('2013-11-27', at('2026-11-27T00:00:00Z'), on)).toBe('ok');
      expect(claimAllowed('2013-11-27', at('2026-11-27T00:00:00Z'), off)).toBe('teen-off');
      expect(claimAllowed('2008-11-27', at('2026-11-27T00:00:00Z'), off)).toBe('ok');
    });

    it('may still be sent FAMILY_CLAIM_GRACE_DAYS after the 18th birthday, not after', () => {
      // 18 on 2026-11-27: the grace runs 90 days, to 2027-02-25 00:00 UTC.
      expect(claimAllowed('2008-11-27', at('2027-02-24T23:59:59Z'), on)).toBe('ok');
      expect(claimAllowed('2008-11-27', at('2027-02-25T00:00:00Z'), on)).toBe('too-late');
      expect(claimAllowed('2008-11-27', at('2026-11-28T00:00:00Z'), { teenSignIn: true, graceDays: 0 })).toBe('too-late');
    });

    it('asks a claimed teen once about their proxies, while someone has access and they are under 18', () => {
      const teen = { claimed: true, assent: null, dateOfBirth: '2011-05-05' };
      const now = at('2026-11-27T12:00:00Z');
      expect(assentPending(teen, 1, now, true)).toBe(true);
      expect(assentPending(teen, 1, now, false)).toBe(false);
      expect(assentPending(teen, 0, now, true)).toBe(false);
      expect(assentPending({ ...teen, assent: 'given' }, 1, now, true)).toBe(false);
      expect(assentPending({ ...teen, claimed: false }, 1, now, true)).toBe(false);
      expect(assentPending({ ...teen, dateOfBirth: '2008-11-27' }, 1, now, true)).toBe(false);
    });

    it("reminds the guardian once, FAMILY_REMINDER_DAYS before the 18th birthday", () => {
      const ends = birthday('2008-12-20', 18);
      const grant = { role: 'guardian', revokedAt: null, expiresAt: ends, reminderSentAt: null };
      expect(comingOfAgeReminderDue(grant, at('2026-11-19T23:59:59Z'), 30)).toBe(false);
      expect(comingOfAgeReminderDue(grant, at('2026-11-20T00:00:00Z'), 30)).toBe(true);
      expect(comingOfAgeReminderDue({ ...grant, reminderSentAt: at('2026-11-20T00:00:00Z') }, at('2026-11-25T00:00:00Z'), 30)).toBe(false);
      expect(comingOfAgeReminderDue({ ...grant, role: 'view' }, at('2026-11-25T00:00:00Z'), 30)).toBe(false);
      expect(comingOfAgeReminderDue(grant, at('2026-12-20T00:00:00Z'), 30)).toBe(false);
    });
  });
});
