import type { NotificationTemplate, TemplateData } from '@medfolio/contracts';
import { button, codeBox, escapeHtml, isHttpUrl, layout, paragraph, plainLink, PRODUCT_NAME, quote } from './html';
import { MAX_LABEL_LENGTH, MAX_PROVIDER_LENGTH, userMessage, userText } from './user-text';

/** A message ready to send: both parts carry the same content. */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

export interface TemplateContext {
  /** The web app's address (PUBLIC_BASE_URL), for links back to the product. */
  baseUrl: string;
}

/** The data fields each template needs (TemplateData in the contract, as a run-time list). */
const REQUIRED_FIELDS: { [T in NotificationTemplate]: (keyof TemplateData[T])[] } = {
  'verification-code': ['first_name', 'code'],
  'password-reset': ['first_name', 'reset_url'],
  welcome: ['first_name'],
  'contact-copy': ['firstname', 'lastname', 'email', 'message'],
  'provider-access-request': ['first_name', 'provider', 'review_url'],
  'share-link-viewed': ['label', 'viewed_at'],
  'billing-receipt': ['plan', 'amount', 'invoice_number', 'invoice_url'],
  'payment-failed': ['plan', 'amount', 'grace_until', 'membership_url'],
  'referral-invite': ['inviter_name', 'signup_url'],
  'sign-up-attempt': ['first_name', 'sign_in_url', 'reset_url'],
  'sign-in-code': ['first_name', 'code'],
  'family-invite': ['inviter_name', 'patient_name', 'role', 'accept_url', 'expires_on'],
  'family-access-expiring': ['first_name', 'patient_name', 'expires_on', 'family_url'],
  'family-claim-invite': ['inviter_name', 'patient_name', 'claim_url', 'expires_on'],
  'family-assent-declined': ['first_name', 'patient_name', 'family_url'],
  'family-coming-of-age': ['first_name', 'patient_name', 'birthday', 'family_url'],
};

/** Longest value a template accepts in any field (the contact message is 200; a reset link may be long). */
const MAX_VALUE_LENGTH = 2000;

/** Why `data` cannot fill `template`, or null when it can. The reason names fields, never values. */
export function templateDataProblem(template: NotificationTemplate, data: Record<string, unknown>): string | null {
  for (const field of REQUIRED_FIELDS[template] as string[]) {
    const value = data[field];
    if (typeof value !== 'string') return `data.${field} is required for the ${template} template`;
    if (value.length > MAX_VALUE_LENGTH) return `data.${field} is too long`;
  }
  const required = (field: string) => (data[field] as string).trim();
  if (template === 'verification-code' && required('code') === '') return 'data.code must not be empty';
  if (template === 'password-reset' && !isHttpUrl(required('reset_url'))) return 'data.reset_url must be an http(s) URL';
  if (template === 'provider-access-request' && !isHttpUrl(required('review_url'))) return 'data.review_url must be an http(s) URL';
  if (template === 'billing-receipt' && required('invoice_url') !== '' && !isHttpUrl(required('invoice_url'))) return 'data.invoice_url must be an http(s) URL';
  if (template === 'payment-failed' && !isHttpUrl(required('membership_url'))) return 'data.membership_url must be an http(s) URL';
  if (template === 'referral-invite' && !isHttpUrl(required('signup_url'))) return 'data.signup_url must be an http(s) URL';
  if (template === 'sign-up-attempt' && !isHttpUrl(required('sign_in_url'))) return 'data.sign_in_url must be an http(s) URL';
  if (template === 'sign-up-attempt' && !isHttpUrl(required('reset_url'))) return 'data.reset_url must be an http(s) URL';
  if (template === 'sign-in-code' && required('code') === '') return 'data.code must not be empty';
  if (template === 'family-invite' && !isHttpUrl(required('accept_url'))) return 'data.accept_url must be an http(s) URL';
  if (template === 'family-access-expiring' && !isHttpUrl(required('family_url'))) return 'data.family_url must be an http(s) URL';
  if (template === 'family-claim-invite' && !isHttpUrl(required('claim_url'))) return 'data.claim_url must be an http(s) URL';
  if ((template === 'family-assent-declined' || template === 'family-coming-of-age') && !isHttpUrl(required('family_url'))) return 'data.family_url must be an http(s) URL';
  return null;
}

/** Renders a template; call templateDataProblem first (missing fields throw here). */
export function renderEmail(template: NotificationTemplate, data: Record<string, string>, context: TemplateContext): RenderedEmail {
  switch (template) {
    case 'verification-code':
      return verificationCode(fields(data, template));
    case 'password-reset':
      return passwordReset(fields(data, template));
    case 'welcome':
      return welcome(fields(data, template), context);
    case 'contact-copy':
      return contactCopy(fields(data, template));
    case 'provider-access-request':
      return providerAccessRequest(fields(data, template));
    case 'share-link-viewed':
      return shareLinkViewed(fields(data, template), context);
    case 'billing-receipt':
      return billingReceipt(fields(data, template));
    case 'payment-failed':
      return paymentFailed(fields(data, template));
    case 'referral-invite':
      return referralInvite(fields(data, template));
    case 'sign-up-attempt':
      return signUpAttempt(fields(data, template));
    case 'sign-in-code':
      return signInCode(fields(data, template));
    case 'family-invite':
      return familyInvite(fields(data, template));
    case 'family-access-expiring':
      return familyAccessExpiring(fields(data, template));
    case 'family-claim-invite':
      return familyClaimInvite(fields(data, template));
    case 'family-assent-declined':
      return familyAssentDeclined(fields(data, template));
    case 'family-coming-of-age':
      return familyComingOfAge(fields(data, template));
  }
}

function fields<T extends NotificationTemplate>(data: Record<string, string>, template: T): TemplateData[T] {
  const problem = templateDataProblem(template, data);
  if (problem) throw new Error(problem);
  return data as unknown as TemplateData[T];
}

const FOOTER = `You received this e-mail because of your ${PRODUCT_NAME} account. ${PRODUCT_NAME} will never ask for your password by e-mail.`;

/** "Hello Ada," with the name as userText makes it (no links, bounded), or "Hello," without one. */
function greeting(firstName: string): string {
  const name = userText(firstName);
  return name ? `Hello ${name},` : 'Hello,';
}

/** Header-safe and tidy: user-provided names never bring line breaks into a subject or greeting. */
function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

function textPart(lines: string[]): string {
  return [PRODUCT_NAME, '', ...lines, '', '--', FOOTER, ''].join('\n');
}

function verificationCode(data: TemplateData['verification-code']): RenderedEmail {
  const subject = `Your ${PRODUCT_NAME} verification code`;
  const code = data.code.trim();
  const intro = `Use this code to verify your e-mail address in ${PRODUCT_NAME}:`;
  const ignore = 'If you did not ask for a code, you can ignore this e-mail. Never share the code with anyone.';
  return {
    subject,
    text: textPart([greeting(data.first_name), '', intro, '', `    ${code}`, '', ignore]),
    html: layout(subject, paragraph(greeting(data.first_name)) + paragraph(intro) + codeBox(code) + paragraph(ignore), FOOTER),
  };
}

function passwordReset(data: TemplateData['password-reset']): RenderedEmail {
  const subject = `Reset your ${PRODUCT_NAME} password`;
  const url = data.reset_url.trim();
  const intro = `We received a request to reset the password of your ${PRODUCT_NAME} account. Choose a new password here:`;
  const ignore = 'If you did not ask for this, ignore this e-mail: your password stays as it is.';
  return {
    subject,
    text: textPart([greeting(data.first_name), '', intro, '', url, '', ignore]),
    html: layout(
      subject,
      paragraph(greeting(data.first_name)) +
        paragraph(intro) +
        button(url, 'Reset password') +
        paragraph('Or open this link:') +
        plainLink(url) +
        paragraph(ignore),
      FOOTER,
    ),
  };
}

function welcome(data: TemplateData['welcome'], context: TemplateContext): RenderedEmail {
  const subject = `Welcome to ${PRODUCT_NAME}`;
  const intro = `Your e-mail address is verified and your ${PRODUCT_NAME} account is ready.`;
  const what = 'Keep your medical history in one place: upload your health documents, get a clear summary, and share it with your doctors when you choose.';
  return {
    subject,
    text: textPart([greeting(data.first_name), '', intro, what, '', `Open ${PRODUCT_NAME}: ${context.baseUrl}`]),
    html: layout(
      subject,
      paragraph(greeting(data.first_name)) + paragraph(intro) + paragraph(what) + button(context.baseUrl, `Open ${PRODUCT_NAME}`),
      FOOTER,
    ),
  };
}

function contactCopy(data: TemplateData['contact-copy']): RenderedEmail {
  const name = `${userText(data.firstname)} ${userText(data.lastname)}`.trim() || 'someone';
  const message = userMessage(data.message);
  const priority = data.priority ? userText(data.priority) : '';
  const subject = `${priority ? '[PRIORITY] ' : ''}New contact message from ${name}`;
  const from = `From: ${name} <${oneLine(data.email)}>`;
  const footer = `Sent from the ${PRODUCT_NAME} contact form. Reply to this e-mail to answer the sender.`;
  const marker = priority ? `Priority support: ${priority}` : '';
  return {
    subject,
    text: [PRODUCT_NAME, '', subject, ...(marker ? [marker] : []), from, '', message, '', '--', footer, ''].join('\n'),
    html: layout(
      subject,
      (marker ? `<p style="margin:0 0 16px 0;"><strong>${escapeHtml(marker)}</strong></p>` : '') +
        `<p style="margin:0 0 16px 0;"><strong>${escapeHtml(name)}</strong> &lt;${escapeHtml(oneLine(data.email))}&gt; wrote:</p>` +
        quote(message),
      footer,
    ),
  };
}

/**
 * A provider asks for the documents behind the patient's shared summary. No health data in
 * it. Only an operator-verified provider is called verified; a self-attested one
 * (a registry name match, which anyone can fake) "claims to be Dr X (NPI ...); not verified".
 */
function providerAccessRequest(data: TemplateData['provider-access-request']): RenderedEmail {
  const verified = data.verification === 'verified';
  const subject = verified ? `A doctor asks to see your documents on ${PRODUCT_NAME}` : `Someone asks to see your documents on ${PRODUCT_NAME}`;
  const provider = userText(data.provider, MAX_PROVIDER_LENGTH) || 'a provider';
  const url = data.review_url.trim();
  const intro = verified
    ? `${provider}, verified in the national provider registry, opened the summary you shared and asks to see the documents behind it.`
    : `Someone who claims to be ${provider}; not verified, opened the summary you shared and asks to see the documents behind it.`;
  const caution = verified ? [] : ['We have not confirmed who this is: the name and number are public. Approve only if you expect this doctor, and check with them if unsure.'];
  const what = 'Nothing is shared until you approve. You choose for how long (a day, a week or a month), and you can revoke access at any time.';
  return {
    subject,
    text: textPart([greeting(data.first_name), '', intro, ...caution, what, '', `Review the request: ${url}`]),
    html: layout(subject, paragraph(greeting(data.first_name)) + paragraph(intro) + caution.map(paragraph).join('') + paragraph(what) + button(url, 'Review the request'), FOOTER),
  };
}

function shareLinkViewed(data: TemplateData['share-link-viewed'], context: TemplateContext): RenderedEmail {
  const label = userText(data.label, MAX_LABEL_LENGTH) || 'a shared link';
  const subject = `Your ${PRODUCT_NAME} summary was viewed through '${label}'`;
  const intro = `Someone opened your shared summary through the link '${label}' (${oneLine(data.viewed_at)}).`;
  const what = 'Your access history lists every view. If you did not expect this, revoke the link on your share panel.';
  const history = `${context.baseUrl.replace(/\/$/, '')}/history`;
  return {
    subject,
    text: textPart([intro, what, '', `Access history: ${history}`, '', 'We send at most one of these e-mails per link per hour.']),
    html: layout(subject, paragraph(intro) + paragraph(what) + button(history, 'Open access history'), FOOTER),
  };
}

function billingReceipt(data: TemplateData['billing-receipt']): RenderedEmail {
  const subject = `Your ${PRODUCT_NAME} receipt`;
  const paid = `Thank you: we received ${oneLine(data.amount)} for your ${oneLine(data.plan)} plan (invoice ${oneLine(data.invoice_number)}).`;
  const url = data.invoice_url.trim();
  return {
    subject,
    text: textPart(['Hello,', '', paid, ...(url ? ['', `Your invoice: ${url}`] : [])]),
    html: layout(subject, paragraph('Hello,') + paragraph(paid) + (url ? button(url, 'View the invoice') : ''), FOOTER),
  };
}

function paymentFailed(data: TemplateData['payment-failed']): RenderedEmail {
  const subject = `Your ${PRODUCT_NAME} payment did not go through`;
  const what = `We could not take ${oneLine(data.amount)} for your ${oneLine(data.plan)} plan. Your plan stays as it is until ${oneLine(data.grace_until)} while the payment is tried again.`;
  const act = 'Check your card, or choose another plan:';
  const url = data.membership_url.trim();
  return {
    subject,
    text: textPart(['Hello,', '', what, '', act, url]),
    html: layout(subject, paragraph('Hello,') + paragraph(what) + paragraph(act) + button(url, 'Your membership'), FOOTER),
  };
}

function referralInvite(data: TemplateData['referral-invite']): RenderedEmail {
  const name = userText(data.inviter_name) || 'A friend';
  const subject = `${name} invites you to ${PRODUCT_NAME}`;
  const intro = `${name} uses ${PRODUCT_NAME} to keep their medical history in one place, and invites you to join.`;
  const url = data.signup_url.trim();
  const footer = `You received this e-mail because someone you may know entered your address. ${PRODUCT_NAME} will not write to you again unless you sign up.`;
  return {
    subject,
    text: [PRODUCT_NAME, '', 'Hello,', '', intro, '', `Sign up: ${url}`, '', '--', footer, ''].join('\n'),
    html: layout(subject, paragraph('Hello,') + paragraph(intro) + button(url, 'Sign up'), footer),
  };
}

/** The sign-up answered as for a new address; the owner of this one learns of it here. */
function signUpAttempt(data: TemplateData['sign-up-attempt']): RenderedEmail {
  const subject = `Someone tried to sign up to ${PRODUCT_NAME} with your e-mail address`;
  const what = `Someone (perhaps you) just tried to create a ${PRODUCT_NAME} account with this e-mail address. You already have an account, so no new one was made and nothing changed in yours.`;
  const act = 'If it was you: sign in to your account, or reset your password if you have forgotten it.';
  const ignore = 'If it was not you, you can ignore this e-mail: your account and password stay as they are.';
  const signIn = data.sign_in_url.trim();
  const reset = data.reset_url.trim();
  return {
    subject,
    text: textPart([greeting(data.first_name), '', what, '', act, `Sign in: ${signIn}`, `Reset your password: ${reset}`, '', ignore]),
    html: layout(
      subject,
      paragraph(greeting(data.first_name)) +
        paragraph(what) +
        paragraph(act) +
        button(signIn, 'Sign in') +
        paragraph('Forgotten your password?') +
        button(reset, 'Reset your password') +
        paragraph(ignore),
      FOOTER,
    ),
  };
}

/** A sign-in from a new address while the account sees many failed attempts asks for this code. */
function signInCode(data: TemplateData['sign-in-code']): RenderedEmail {
  const subject = `Your ${PRODUCT_NAME} sign-in code`;
  const code = data.code.trim();
  const intro = `Someone (we hope you) signed in to ${PRODUCT_NAME} with your password from a device we have not seen before. Because of many failed sign-in attempts on your account, we ask for this code too:`;
  const ignore = 'If this was not you, do not share the code with anyone, and change your password: whoever signed in knows it.';
  return {
    subject,
    text: textPart([greeting(data.first_name), '', intro, '', `    ${code}`, '', 'The code works for 10 minutes.', ignore]),
    html: layout(subject, paragraph(greeting(data.first_name)) + paragraph(intro) + codeBox(code) + paragraph('The code works for 10 minutes.') + paragraph(ignore), FOOTER),
  };
}

/** An invitation to another person's record as a caregiver (the link is the secret; it expires). */
function familyInvite(data: TemplateData['family-invite']): RenderedEmail {
  const inviter = oneLine(userText(data.inviter_name)) || 'Someone';
  const patient = oneLine(userText(data.patient_name)) || 'a family member';
  const can = data.role.trim() === 'manage' ? 'view and manage' : 'view';
  const subject = `${inviter} invites you to ${can} ${patient}'s health record on ${PRODUCT_NAME}`;
  const intro = `${inviter} invites you to ${can} ${patient}'s health record on ${PRODUCT_NAME} as a caregiver.`;
  const act = `Accept by ${data.expires_on.trim()}: sign in, or create an account, with the button below.`;
  const ignore = 'If you do not know who this is, ignore this e-mail: nothing happens unless the invitation is accepted.';
  const url = data.accept_url.trim();
  const footer = `You received this e-mail because someone entered your address to invite you. ${PRODUCT_NAME} will not write to you again about it.`;
  return {
    subject,
    text: [PRODUCT_NAME, '', 'Hello,', '', intro, '', act, url, '', ignore, '', '--', footer, ''].join('\n'),
    html: layout(subject, paragraph('Hello,') + paragraph(intro) + paragraph(act) + button(url, 'See the invitation') + paragraph(ignore), footer),
  };
}

/** A guardian invites a dependant (13 or over) to their own sign-in: the account keeps their record. */
function familyClaimInvite(data: TemplateData['family-claim-invite']): RenderedEmail {
  const inviter = oneLine(userText(data.inviter_name)) || 'Your guardian';
  const patient = oneLine(userText(data.patient_name)) || 'there';
  const subject = `${inviter} invites you to your own ${PRODUCT_NAME} sign-in`;
  const intro = `${inviter} has kept your health record on ${PRODUCT_NAME}. You can now have your own sign-in to it: choose a password with the button below, then sign in with this address.`;
  const act = `The link works until ${data.expires_on.trim()}, once.`;
  const ignore = 'If you do not know who this is, ignore this e-mail: nothing happens unless the link is used.';
  const url = data.claim_url.trim();
  const footer = `You received this e-mail because someone entered your address for this invitation. ${PRODUCT_NAME} will not write to you again about it.`;
  return {
    subject,
    text: [PRODUCT_NAME, '', `Hello ${patient},`, '', intro, '', act, url, '', ignore, '', '--', footer, ''].join('\n'),
    html: layout(subject, paragraph(`Hello ${patient},`) + paragraph(intro) + paragraph(act) + button(url, 'Set up my sign-in') + paragraph(ignore), footer),
  };
}

/** A teen who claimed their record ended their guardian's and caregivers' access. */
function familyAssentDeclined(data: TemplateData['family-assent-declined']): RenderedEmail {
  const patient = oneLine(userText(data.patient_name)) || 'Your family member';
  const subject = `${patient} now manages their own ${PRODUCT_NAME} record`;
  const what = `${patient} has their own sign-in and chose to keep their health record to themself: your access to it has ended.`;
  const act = `${patient} can invite you again from their Family page at any time.`;
  const url = data.family_url.trim();
  return {
    subject,
    text: textPart([greeting(data.first_name), '', what, '', act, url]),
    html: layout(subject, paragraph(greeting(data.first_name)) + paragraph(what) + paragraph(act) + button(url, 'Family'), FOOTER),
  };
}

/** A dependant turns 18 soon: the guardian's access ends on the birthday; the guardian may send the claim link. */
function familyComingOfAge(data: TemplateData['family-coming-of-age']): RenderedEmail {
  const patient = oneLine(userText(data.patient_name)) || 'Your family member';
  const birthday = data.birthday.trim();
  const subject = `${patient} turns 18 on ${birthday}: your access to their ${PRODUCT_NAME} record ends then`;
  const what = `${patient} turns 18 on ${birthday}. From that day the record is theirs: your access, and that of every caregiver, ends.`;
  const act = `So that ${patient} keeps their record, invite them to their own sign-in from the Family page (you can still do so for a while after the birthday).`;
  const url = data.family_url.trim();
  return {
    subject,
    text: textPart([greeting(data.first_name), '', what, '', act, url]),
    html: layout(subject, paragraph(greeting(data.first_name)) + paragraph(what) + paragraph(act) + button(url, 'Family'), FOOTER),
  };
}

/** A caregiver's access to an adult's record is about to end (FAMILY_PROXY_MONTHS); the owner may renew it. */
function familyAccessExpiring(data: TemplateData['family-access-expiring']): RenderedEmail {
  const patient = oneLine(userText(data.patient_name)) || 'a family member';
  const subject = `Caregiver access to ${patient}'s ${PRODUCT_NAME} record ends on ${data.expires_on.trim()}`;
  const what = `Caregiver access to ${patient}'s health record on ${PRODUCT_NAME} ends on ${data.expires_on.trim()}, as access for another adult does after a set time.`;
  const act = `To keep it, renew it on the Family page before then. Otherwise nothing needs doing.`;
  const url = data.family_url.trim();
  return {
    subject,
    text: textPart([greeting(data.first_name), '', what, '', act, url]),
    html: layout(subject, paragraph(greeting(data.first_name)) + paragraph(what) + paragraph(act) + button(url, 'Family'), FOOTER),
  };
}
