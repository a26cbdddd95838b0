// zod/mini: the same rules as zod with a functional API, about a tenth of its size in the bundle.
import * as z from 'zod/mini';

/**
 * Every client-side validation rule of the product (spec section 5), with its exact message.
 * Forms use them through react-hook-form's zodResolver in mode 'onTouched': an error shows once
 * its field has been touched (or the form submitted).
 */
const LIMIT = 'Limit exceeded';

const required = (message: string, max = 100) => z.string().check(z.trim(), z.minLength(1, message), z.maxLength(max, LIMIT));
const password = () => z.string().check(z.minLength(1, 'Password is required'), z.maxLength(100, LIMIT));

/** The confirmation must equal the password (reported on confirm_password once it is filled in). */
const passwordsMatch = z.refine<{ password: string; confirm_password: string }>((form) => form.confirm_password === '' || form.password === form.confirm_password, {
  message: 'Passwords must match',
  path: ['confirm_password'],
});

export const loginSchema = z.object({
  email: required('Email is required'),
  password: password(),
});
export type LoginForm = z.infer<typeof loginSchema>;

export const signUpSchema = z
  .object({
    name: required('Name is required'),
    phone: required('Mobile number is required'),
    // No e-mail format check applies on sign-up (the server checks it and says so).
    email: required('Email is required'),
    month: z.string().check(z.minLength(1, 'Month is required')),
    day: z.string().check(z.minLength(1, 'Day is required')),
    year: z.string().check(z.minLength(1, 'Year is required')),
    password: password(),
    confirm_password: z.string().check(z.minLength(1, 'Confirm password is required')),
  })
  .check(passwordsMatch);
export type SignUpForm = z.infer<typeof signUpSchema>;

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

/**
 * Edit profile's personal information (PUT /api/profile/). The spec gives this form no rules; these
 * follow the server's (first name and phone required) and the product's 100-character field limit.
 */
export const profileSchema = z.object({
  first_name: required('First name is required'),
  last_name: z.string().check(z.trim(), z.maxLength(100, LIMIT)),
  phone: required('Phone is required'),
});
export type ProfileForm = z.infer<typeof profileSchema>;

/** Sign-up's date of birth selects: months 01–12, days 01–31, the current year and the 99 before it. */
export function dateOptions(today: Date = new Date()): { months: string[]; days: string[]; years: string[] } {
  const pad = (n: number) => String(n).padStart(2, '0');
  const current = today.getFullYear();
  return {
    months: Array.from({ length: 12 }, (_, i) => pad(i + 1)),
    days: Array.from({ length: 31 }, (_, i) => pad(i + 1)),
    years: Array.from({ length: 100 }, (_, i) => String(current - i)),
  };
}

/** The registration payload's date_of_birth: year-month-day with two-digit month and day. */
export function dateOfBirth(form: Pick<SignUpForm, 'year' | 'month' | 'day'>): string {
  return `${form.year}-${form.month}-${form.day}`;
}

/** The sign-up form has one Name field; the first word becomes first_name, the rest last_name. */
export function splitName(name: string): { first_name: string; last_name: string } {
  const [first = '', ...rest] = name.trim().split(/\s+/);
  return { first_name: first, last_name: rest.join(' ') };
}
