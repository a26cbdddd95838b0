import { NPI_FORMAT_MESSAGES, npiFormatError } from './npi';

describe('npiFormatError', () => {
  it('accepts well-formed NPIs (10 digits, Luhn check digit over 80840 + the first nine)', () => {
    // 1234567893 is the NPI standard's own example; the others pass the same check.
    for (const npi of ['1234567893', '1003000126', '1245319599']) expect(npiFormatError(npi)).toBeNull();
  });

  it('refuses anything but exactly 10 digits', () => {
    for (const value of ['12345', '123456789', '12345678930', '123456789a', '123 456 7893', '']) expect(npiFormatError(value)).toBe(NPI_FORMAT_MESSAGES.digits);
  });

  it('refuses a wrong check digit (a typo in any one digit)', () => {
    for (const value of ['1234567890', '1234567894', '1234567983', '2234567893']) expect(npiFormatError(value)).toBe(NPI_FORMAT_MESSAGES.checkDigit);
  });
});
