import { profileSchema } from './account-schemas';
import { PHONE_INVALID } from './phone';

/** The messages the edit-profile form shows for `input`, by field. */
function messages(input: unknown) {
  const result = profileSchema.safeParse(input);
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[String(issue.path[0])] ??= issue.message;
  return out;
}

const long = (n: number) => 'x'.repeat(n);
const valid = { first_name: 'Ana', last_name: 'Lima', phone: '+1 202 555 0143' };

describe('edit profile rules', () => {
  it('accepts a complete form, and an empty last name', () => {
    expect(messages(valid)).toEqual({});
    expect(messages({ ...valid, last_name: '' })).toEqual({});
  });

  it('requires first name and phone with clear messages', () => {
    expect(messages({ first_name: '', last_name: '', phone: '' })).toEqual({ first_name: 'First name is required', phone: 'Phone is required' });
  });

  it('treats blanks as empty', () => {
    expect(messages({ first_name: '   ', last_name: 'Lima', phone: ' \t ' })).toEqual({ first_name: 'First name is required', phone: 'Phone is required' });
  });

  it('limits every field to 100 characters', () => {
    expect(messages({ first_name: long(101), last_name: long(101), phone: long(101) })).toEqual({
      first_name: 'Limit exceeded (100 characters)',
      last_name: 'Limit exceeded (100 characters)',
      phone: 'Limit exceeded (100 characters)',
    });
    expect(messages({ first_name: long(100), last_name: long(100), phone: valid.phone })).toEqual({});
  });

  it('sends trimmed values', () => {
    expect(profileSchema.parse({ first_name: ' Ana ', last_name: ' Lima ', phone: ' +44 20 7946 0958 ' })).toEqual({ first_name: 'Ana', last_name: 'Lima', phone: '+44 20 7946 0958' });
  });

  it('refuses a phone number that is not one', () => {
    expect(messages({ ...valid, phone: 'abc' })).toEqual({ phone: PHONE_INVALID });
  });
});
