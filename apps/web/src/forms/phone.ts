// The small build of libphonenumber (its "min" metadata), the one the server checks with too.
import { isValidPhoneNumber } from 'libphonenumber-js/min';

/** The server's message for a phone number it refuses (libs/contracts field-rules). */
export const PHONE_INVALID = 'Enter a valid mobile number with its country code, e.g. +44 20 7946 0958.';

/** International form (+country code) and a number that exists in that country's plan. */
export function isPhoneNumber(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.startsWith('+') && isValidPhoneNumber(trimmed);
}
