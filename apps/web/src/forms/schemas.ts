// zod/mini: the same rules as zod with a functional API, about a tenth of its size in the bundle.
import * as z from 'zod/mini';

/**
 * Every client-side validation rule of the product (spec section 5), with its exact message.
 * Forms use them through react-hook-form's zodResolver in mode 'onTouched': an error shows once
 * its field has been touched (or the form submitted).
 */
/** The spec's 'Limit exceeded', with the limit a user needs to fix the field (as the server says it). */
export const limitExceeded = (max: number) => `Limit exceeded (${max} characters)`;
const LIMIT = limitExceeded(100);

/** The server's rule for a new password; shown by the field before anything is typed. */
export const PASSWORD_MIN = 8;
export const PASSWORD_RULE = `At least ${PASSWORD_MIN} characters.`;

export const required = (message: string, max = 100) => z.string().check(z.trim(), z.minLength(1, message), z.maxLength(max, limitExceeded(max)));
export const password = () => z.string().check(z.minLength(1, 'Password is required'), z.maxLength(100, LIMIT));

/** The confirmation must equal the password (reported on confirm_password once it is filled in). */
export const passwordsMatch = z.refine<{ password: string; confirm_password: string }>((form) => form.confirm_password === '' || form.password === form.confirm_password, {
  message: 'Passwords must match',
  path: ['confirm_password'],
});

export const loginSchema = z.object({
  email: required('Email is required'),
  password: password(),
});
export type LoginForm = z.infer<typeof loginSchema>;

export const forgotPasswordSchema = z.object({ email: required('Email is required') });
export type ForgotPasswordForm = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z
  .object({
    password: password(),
    confirm_password: z.string().check(z.minLength(1, 'Confirm password is required')),
  })
  .check(passwordsMatch);
export type ResetPasswordForm = z.infer<typeof resetPasswordSchema>;

export const contactSchema = z.object({
  firstname: required('Firstname is required'),
  lastname: required('Lastname is required'),
  email: z.string().check(z.trim(), z.minLength(1, 'Email is required'), z.maxLength(100, LIMIT), z.email('Invalid email')),
  message: required('Message is required', 200),
});
export type ContactForm = z.infer<typeof contactSchema>;

const pad = (n: number) => String(n).padStart(2, '0');

/** Sign-up's date of birth selects: months 01–12, days 01–31, the current year and the 99 before it. */
export function dateOptions(today: Date = new Date()): { months: string[]; days: string[]; years: string[] } {
  const current = today.getFullYear();
  return {
    months: Array.from({ length: 12 }, (_, i) => pad(i + 1)),
    days: Array.from({ length: 31 }, (_, i) => pad(i + 1)),
    years: Array.from({ length: 100 }, (_, i) => String(current - i)),
  };
}

/**
 * The days that exist in `month` ('01'–'12') of `year`: 28 to 31. Without a year February keeps
 * its 29th (some year has it); without a month, all 31.
 */
export function daysIn(month: string, year: string): string[] {
  const m = Number(month);
  if (!m) return Array.from({ length: 31 }, (_, i) => pad(i + 1));
  // Day 0 of the next month is the last day of this one; 2000 stands in for "a leap year".
  const last = new Date(Date.UTC(Number(year) || 2000, m, 0)).getUTCDate();
  return Array.from({ length: last }, (_, i) => pad(i + 1));
}

/** The registration payload's date_of_birth: year-month-day with two-digit month and day. */
export function dateOfBirth(form: { year: string; month: string; day: string }): string {
  return `${form.year}-${form.month}-${form.day}`;
}

/** The sign-up form has one Name field; the first word becomes first_name, the rest last_name. */
export function splitName(name: string): { first_name: string; last_name: string } {
  const [first = '', ...rest] = name.trim().split(/\s+/);
  return { first_name: first, last_name: rest.join(' ') };
}

/** Checkout's billing details (spec section 5: all required; the e-mail typed as one). */
export const checkoutSchema = z.object({
  first_name: required('First name is required'),
  last_name: required('Last name is required'),
  email: z.string().check(z.trim(), z.minLength(1, 'Email is required'), z.maxLength(100, LIMIT), z.email('Invalid email')),
  address: required('Address is required', 200),
  city: required('City is required'),
  postal_code: required('ZIP code is required', 20),
});
export type CheckoutForm = z.infer<typeof checkoutSchema>;

/** Send Invite on /referral. */
export const inviteSchema = z.object({
  email: z.string().check(z.trim(), z.minLength(1, 'Email is required'), z.maxLength(100, LIMIT), z.email('Invalid email')),
});
export type InviteForm = z.infer<typeof inviteSchema>;
