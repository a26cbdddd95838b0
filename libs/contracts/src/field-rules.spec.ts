import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { PHONE_INVALID, isPhoneNumber } from './field-rules';
import { RegisterDto, UpdateProfileDto } from './identity';

const register = { first_name: 'Ana', phone: '+1 202 555 0143', email: 'ana@example.com', password: 'correct horse', date_of_birth: '1990-01-01' };

function messages(type: new () => object, body: object): Record<string, string[]> {
  const errors = validateSync(plainToInstance(type, body));
  return Object.fromEntries(errors.map((e) => [e.property, Object.values(e.constraints ?? {})]));
}

describe('phone numbers', () => {
  it.each(['+1 202 555 0143', '+44 20 7946 0958', '+33 6 12 34 56 78', ' +49 1512 3456789 ', '+1 (415) 555-2671'])('accepts %s', (phone) => {
    expect(isPhoneNumber(phone)).toBe(true);
    expect(messages(RegisterDto, { ...register, phone })).toEqual({});
  });

  it.each(['abc', '1', '12345', '202 555 0143', '+1 555 0100', '+44 123', '+999 1234567'])('refuses %s with one clear message', (phone) => {
    expect(isPhoneNumber(phone)).toBe(false);
    expect(messages(RegisterDto, { ...register, phone })['phone']).toContain(PHONE_INVALID);
    expect(messages(UpdateProfileDto, { first_name: 'Ana', phone })['phone']).toContain(PHONE_INVALID);
  });
});

describe('limits', () => {
  it('names the limit that was passed', () => {
    expect(messages(RegisterDto, { ...register, first_name: 'x'.repeat(101) })['first_name']).toEqual(['Limit exceeded (100 characters)']);
  });
});
