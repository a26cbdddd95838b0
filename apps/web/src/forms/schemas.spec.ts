import { signUpSchema } from './account-schemas';
import { PHONE_INVALID } from './phone';
import { contactSchema, dateOfBirth, dateOptions, daysIn, forgotPasswordSchema, loginSchema, resetPasswordSchema, splitName } from './schemas';

/** The messages a form shows for `input`, by field. */
function messages(schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }, input: unknown) {
  const result = schema.safeParse(input);
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[String(issue.path[0])] ??= issue.message;
  return out;
}

const long = (n: number) => 'x'.repeat(n);

describe('login rules', () => {
  it('requires both fields with the spec messages', () => {
    expect(messages(loginSchema, { email: '', password: '' })).toEqual({ email: 'Email is required', password: 'Password is required' });
  });
  it('limits both to 100 characters', () => {
    expect(messages(loginSchema, { email: long(101), password: long(101) })).toEqual({ email: 'Limit exceeded (100 characters)', password: 'Limit exceeded (100 characters)' });
    expect(messages(loginSchema, { email: long(100), password: long(100) })).toEqual({});
  });
  it('checks no e-mail format', () => {
    expect(messages(loginSchema, { email: 'not-an-address', password: 'p' })).toEqual({});
  });
});

describe('sign-up rules', () => {
  const valid = { name: 'Ana Lima', phone: '+1 202 555 0143', email: 'ana', month: '02', day: '09', year: '1990', password: 'secret12', confirm_password: 'secret12' };
  it('accepts a complete form (no e-mail format check)', () => {
    expect(messages(signUpSchema, valid)).toEqual({});
  });
  it('names every missing field with its own message', () => {
    expect(messages(signUpSchema, { name: '', phone: '', email: '', month: '', day: '', year: '', password: '', confirm_password: '' })).toEqual({
      name: 'Name is required',
      phone: 'Mobile number is required',
      email: 'Email is required',
      month: 'Month is required',
      day: 'Day is required',
      year: 'Year is required',
      password: 'Password is required',
      confirm_password: 'Confirm password is required',
    });
  });
  it('limits name, phone, e-mail and password to 100', () => {
    expect(messages(signUpSchema, { ...valid, name: long(101), phone: long(101), email: long(101), password: long(101), confirm_password: long(101) })).toEqual({
      name: 'Limit exceeded (100 characters)',
      phone: 'Limit exceeded (100 characters)',
      email: 'Limit exceeded (100 characters)',
      password: 'Limit exceeded (100 characters)',
    });
  });
  it('checks the phone number and says how to write it', () => {
    for (const phone of ['abc', '1', '202 555 0143', '+1 555 0100']) expect(messages(signUpSchema, { ...valid, phone })).toEqual({ phone: PHONE_INVALID });
    expect(messages(signUpSchema, { ...valid, phone: ' +44 20 7946 0958 ' })).toEqual({});
  });
  it('wants a password of at least 8 characters', () => {
    expect(messages(signUpSchema, { ...valid, password: 'short12', confirm_password: 'short12' })).toEqual({ password: 'At least 8 characters.' });
  });
  it('refuses a day the month does not have', () => {
    expect(messages(signUpSchema, { ...valid, year: '1987', month: '02', day: '29' })).toEqual({ day: 'This day does not exist in that month' });
    expect(messages(signUpSchema, { ...valid, year: '1988', month: '02', day: '29' })).toEqual({});
  });
  it('wants the two passwords to match', () => {
    expect(messages(signUpSchema, { ...valid, confirm_password: 'other' })).toEqual({ confirm_password: 'Passwords must match' });
  });
  it('reports a mismatch even while another field is still empty', () => {
    expect(messages(signUpSchema, { ...valid, name: '', confirm_password: 'other' })).toEqual({ name: 'Name is required', confirm_password: 'Passwords must match' });
  });
});

describe('days of a month', () => {
  it('offers only the days that exist', () => {
    expect(daysIn('04', '2001')).toHaveLength(30);
    expect(daysIn('02', '1987').at(-1)).toBe('28');
    expect(daysIn('02', '1988').at(-1)).toBe('29');
    expect(daysIn('02', '').at(-1)).toBe('29');
    expect(daysIn('', '')).toHaveLength(31);
    expect(daysIn('12', '1990')[0]).toBe('01');
  });
});

describe('forgot and reset password rules', () => {
  it('forgot: e-mail required, at most 100', () => {
    expect(messages(forgotPasswordSchema, { email: '' })).toEqual({ email: 'Email is required' });
    expect(messages(forgotPasswordSchema, { email: long(101) })).toEqual({ email: 'Limit exceeded (100 characters)' });
  });
  it('reset: both required, matching, at most 100', () => {
    expect(messages(resetPasswordSchema, { password: '', confirm_password: '' })).toEqual({ password: 'Password is required', confirm_password: 'Confirm password is required' });
    expect(messages(resetPasswordSchema, { password: 'a', confirm_password: 'b' })).toEqual({ confirm_password: 'Passwords must match' });
    expect(messages(resetPasswordSchema, { password: long(101), confirm_password: long(101) })).toEqual({ password: 'Limit exceeded (100 characters)' });
  });
});

describe('contact rules', () => {
  const valid = { firstname: 'Ana', lastname: 'Lima', email: 'ana@example.com', message: 'Hello' };
  it('accepts a complete form', () => expect(messages(contactSchema, valid)).toEqual({}));
  it('requires every field with the spec messages', () => {
    expect(messages(contactSchema, { firstname: '', lastname: '', email: '', message: '' })).toEqual({
      firstname: 'Firstname is required',
      lastname: 'Lastname is required',
      email: 'Email is required',
      message: 'Message is required',
    });
  });
  it('checks the e-mail format and the limits (100, message 200)', () => {
    expect(messages(contactSchema, { ...valid, email: 'ana@' })).toEqual({ email: 'Invalid email' });
    expect(messages(contactSchema, { firstname: long(101), lastname: long(101), email: `${long(95)}@x.com`, message: long(201) })).toEqual({
      firstname: 'Limit exceeded (100 characters)',
      lastname: 'Limit exceeded (100 characters)',
      email: 'Limit exceeded (100 characters)',
      message: 'Limit exceeded (200 characters)',
    });
    expect(messages(contactSchema, { ...valid, message: long(200) })).toEqual({});
  });
});

describe('date of birth options', () => {
  it('offers months 01–12, days 01–31 and the current year with the 99 before it', () => {
    const { months, days, years } = dateOptions(new Date(2026, 10, 21));
    expect(months).toEqual(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12']);
    expect(days).toHaveLength(31);
    expect(days[0]).toBe('01');
    expect(days[30]).toBe('31');
    expect(years).toHaveLength(100);
    expect(years[0]).toBe('2026');
    expect(years[99]).toBe('1927');
  });
  it('follows the calendar: next year starts at that year', () => {
    expect(dateOptions(new Date(2031, 0, 1)).years[0]).toBe('2031');
  });
  it('writes the payload as year-month-day', () => {
    expect(dateOfBirth({ year: '1990', month: '02', day: '09' })).toBe('1990-02-09');
  });
});

describe('splitName', () => {
  it('puts the first word in first_name and the rest in last_name', () => {
    expect(splitName('  Ana  Maria Lima ')).toEqual({ first_name: 'Ana', last_name: 'Maria Lima' });
    expect(splitName('Cher')).toEqual({ first_name: 'Cher', last_name: '' });
  });
});
