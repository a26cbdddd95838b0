import { Transform } from 'class-transformer';
import { limitExceeded } from './field-rules';
import { stacked } from './rules';
import { IsEmail, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * Identity (and others) hand e-mails to notifications over REQUEST/REPLY, never over a JetStream
 * stream: messages can carry secrets (verification codes, reset links), and request/reply keeps
 * them off every persisted log. Notifications stores each message encrypted at rest, answers
 * `queued`, and delivers it over SMTP with retries.
 */
export const NOTIFICATION_TEMPLATES = ['verification-code', 'password-reset', 'welcome', 'contact-copy', 'share-link-viewed', 'provider-access-request', 'billing-receipt', 'payment-failed', 'referral-invite', 'sign-up-attempt', 'sign-in-code', 'family-invite', 'family-access-expiring', 'family-claim-invite', 'family-assent-declined', 'family-coming-of-age'] as const;
export type NotificationTemplate = (typeof NOTIFICATION_TEMPLATES)[number];

/** The data each template needs (all strings). */
export interface TemplateData {
  'verification-code': { first_name: string; code: string };
  'password-reset': { first_name: string; reset_url: string };
  welcome: { first_name: string };
  /** `priority`: set for priority support (the plan and the promised answer time); the subject then starts "[PRIORITY]". */
  'contact-copy': { firstname: string; lastname: string; email: string; message: string; priority?: string };
  /**
   * A provider asks to see the documents behind the patient's shared summary.
   * `verification`: 'verified' (an operator confirmed who they are) or 'self_attested' (an NPI whose
   * registry name matches the account's: a claim, worded "claims to be ...; not verified"); missing
   * counts as self_attested.
   */
  'provider-access-request': { first_name: string; provider: string; review_url: string; verification?: 'self_attested' | 'verified' };
  /** A share link was opened (the owner turned this on; at most one per link per hour). */
  'share-link-viewed': { label: string; viewed_at: string };
  /** Billing: invoice.paid. `invoice_url` may be empty. */
  'billing-receipt': { plan: string; amount: string; invoice_number: string; invoice_url: string };
  /** Billing: invoice.payment_failed; the plan stays until `grace_until` (a date). */
  'payment-failed': { plan: string; amount: string; grace_until: string; membership_url: string };
  /** Billing: a friend's invitation with the sign-up link carrying the referral code. */
  'referral-invite': { inviter_name: string; signup_url: string };
  /** Someone tried to sign up with an address that has an account; the owner is told (the sign-up answers the same as for a new address). */
  'sign-up-attempt': { first_name: string; sign_in_url: string; reset_url: string };
  /** The right password from a new address while the account is under attack; the code finishes the sign-in. */
  'sign-in-code': { first_name: string; code: string };
  /** Family: an invitation to a record as a caregiver; `role` is 'view' or 'manage', `expires_on` a date. */
  'family-invite': { inviter_name: string; patient_name: string; role: string; accept_url: string; expires_on: string };
  /** Family: a caregiver's access to an adult's record ends on `expires_on` unless the record's owner renews it. */
  'family-access-expiring': { first_name: string; patient_name: string; expires_on: string; family_url: string };
  /** Family: a guardian invites a dependant (13 or over) to claim their record with their own sign-in. */
  'family-claim-invite': { inviter_name: string; patient_name: string; claim_url: string; expires_on: string };
  /** Family: a teen who claimed their record ended their guardian's (and caregivers') access. */
  'family-assent-declined': { first_name: string; patient_name: string; family_url: string };
  /** Family: a dependant turns 18 on `birthday`; the guardian's access ends then (sent once, FAMILY_REMINDER_DAYS before). */
  'family-coming-of-age': { first_name: string; patient_name: string; birthday: string; family_url: string };
}

export class SendEmailDto {
  @IsEmail({}, { message: 'to must be an e-mail address' })
  @MaxLength(254)
  to!: string;

  @IsIn(NOTIFICATION_TEMPLATES)
  template!: NotificationTemplate;

  @IsObject()
  data!: Record<string, string>;

  /** Same key twice = one message (a retried request does not send twice). */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  idempotencyKey?: string;
}

export interface SendEmailReply {
  id: string;
  state: 'queued';
}

export const NOTIFICATIONS_SUBJECTS = {
  /** Request/reply: queue one templated e-mail. Payload SendEmailDto, reply SendEmailReply. */
  sendEmail: 'notifications.email.send',
  /** Request/reply: the contact form (POST /api/contact/). */
  submitContact: 'notifications.contact.submit',
  /** Request/reply, embedded mode only: the dev mailbox (GET /dev/mail, /dev/mail.json). */
  listDevMail: 'notifications.devmail.list',
} as const;


const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** A contact form field's "required" checks on the trimmed text: `message` when missing or empty (written as the decorators they stand for, bottom-up). */
function Filled(message: string): PropertyDecorator {
  return stacked(IsNotEmpty({ message }), IsString({ message }), Transform(trimmed));
}

/** The spec's limit on a contact form field, reported after its other checks. */
function Limit(max: number): PropertyDecorator {
  return MaxLength(max, { message: limitExceeded(max) });
}

/**
 * The contact form (spec section 5): field names, limits and messages exactly as the spec gives
 * them. class-validator reports a field's checks from the decorator nearest the property upwards,
 * so they are written bottom-up: "required" is reported first (an empty e-mail is "Email is
 * required", not "Invalid email"), then the format, then the limit.
 */
export class ContactMessageDto {
  @Limit(100)
  @Filled('Firstname is required')
  firstname!: string;

  @Limit(100)
  @Filled('Lastname is required')
  lastname!: string;

  @Limit(100)
  @IsEmail({}, { message: 'Invalid email' })
  @Filled('Email is required')
  email!: string;

  @Limit(200)
  @Filled('Message is required')
  message!: string;
}

export interface ContactReply {
  message: string;
  /** The sender is signed in on a plan with priority support (Plus, Family): the message went to support marked priority. */
  priority: boolean;
  /** The answer time support promises for this message, in hours (configuration: CONTACT_PRIORITY_HOURS / CONTACT_STANDARD_HOURS). */
  answer_within_hours: number;
}

/** One message of the embedded mode's dev mailbox (`notifications.devmail.list`, newest first). */
export interface DevMailEntry {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** ISO 8601. */
  sent_at: string;
}
