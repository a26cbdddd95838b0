/**
 * The NPI's format, checked in the browser before anything is sent (the identity service checks the
 * same: apps/identity/src/providers/npi.ts). An NPI is 10 digits; its last digit is the Luhn check
 * digit of the first nine prefixed with 80840 (the NPI's card issuer prefix, ISO/IEC 7812).
 */
export const NPI_FORMAT_MESSAGES = {
  digits: 'An NPI is exactly 10 digits (numbers only). Please check the number.',
  checkDigit: 'This is not a valid NPI: its last digit is a check digit, and it does not match the first nine. Please check for a typo.',
} as const;

/** Luhn over a digit string whose last digit is the check digit. */
function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** What is wrong with the number's format, or null when it is a well-formed NPI. */
export function npiFormatError(value: string): string | null {
  if (!/^\d{10}$/.test(value)) return NPI_FORMAT_MESSAGES.digits;
  if (!luhnValid(`80840${value}`)) return NPI_FORMAT_MESSAGES.checkDigit;
  return null;
}
