// The forms that take a phone number. Apart from schemas.ts so that the phone-number metadata
// (libphonenumber) is loaded by these pages only, not by the login page.
import * as z from 'zod/mini';
import { isPhoneNumber, PHONE_INVALID } from './phone';
import { daysIn, password, PASSWORD_MIN, PASSWORD_RULE, passwordsMatch, required } from './schemas';

export { PASSWORD_RULE };

const phone = (message: string) => required(message).check(z.refine(isPhoneNumber, PHONE_INVALID));

export const signUpSchema = z
  .object({
    name: required('Name is required'),
    phone: phone('Mobile number is required'),
    // No e-mail format check applies on sign-up (the server checks it and says so).
    email: required('Email is required'),
    month: z.string().check(z.minLength(1, 'Month is required')),
    day: z.string().check(z.minLength(1, 'Day is required')),
    year: z.string().check(z.minLength(1, 'Year is required')),
    password: password().check(z.refine((value) => value === '' || value.length >= PASSWORD_MIN, PASSWORD_RULE)),
    confirm_password: z.string().check(z.minLength(1, 'Confirm password is required')),
  })
  .check(
    passwordsMatch,
    // The day list offers only real days; this catches a day left over from another month.
    z.refine((form) => !form.day || !form.month || daysIn(form.month, form.year).includes(form.day), {
      message: 'This day does not exist in that month',
      path: ['day'],
    }),
  );
export type SignUpForm = z.infer<typeof signUpSchema>;

/**
 * Edit profile's personal information (PUT /api/profile/). The spec gives this form no rules; these
 * follow the server's (first name and phone required, phone checked) and the 100-character limit.
 */
export const profileSchema = z.object({
  first_name: required('First name is required'),
  last_name: z.string().check(z.trim(), z.maxLength(100, 'Limit exceeded (100 characters)')),
  phone: phone('Phone is required'),
});
export type ProfileForm = z.infer<typeof profileSchema>;
