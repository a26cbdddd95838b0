import { isValidPhoneNumber } from 'libphonenumber-js/min';
import { ValidateBy } from 'class-validator';

/** One message for every phone field (the web form shows the same words). */
export const PHONE_INVALID = 'Enter a valid mobile number with its country code, e.g. +44 20 7946 0958.';

/**
 * A phone number in international form (+country code), checked against the numbering plan of its
 * country (libphonenumber's metadata, the same package the web form uses). Without a country code
 * a number is ambiguous, so it is refused with a message saying what to add.
 */
export function isPhoneNumber(value: unknown): boolean {
  return typeof value === 'string' && /^\+/.test(value.trim()) && isValidPhoneNumber(value.trim());
}

export function IsPhone(): PropertyDecorator {
  return ValidateBy({ name: 'isPhone', validator: { validate: isPhoneNumber, defaultMessage: () => PHONE_INVALID } });
}

/** The spec's 'Limit exceeded', with the limit a user needs to fix the field. */
export const limitExceeded = (max: number): string => `Limit exceeded (${max} characters)`;
