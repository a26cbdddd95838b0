import type { NotificationTemplate, TemplateData } from '@medfolio/contracts';
import { button, codeBox, escapeHtml, isHttpUrl, layout, paragraph, plainLink, PRODUCT_NAME, quote } from './html';

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
  }
}

function fields<T extends NotificationTemplate>(data: Record<string, string>, template: T): TemplateData[T] {
  const problem = templateDataProblem(template, data);
  if (problem) throw new Error(problem);
  return data as unknown as TemplateData[T];
}

const FOOTER = `You received this e-mail because of your ${PRODUCT_NAME} account. ${PRODUCT_NAME} will never ask for your password by e-mail.`;

function greeting(firstName: string): string {
  const name = oneLine(firstName);
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
  const name = `${oneLine(data.firstname)} ${oneLine(data.lastname)}`;
  const subject = `New contact message from ${name}`;
  const from = `From: ${name} <${oneLine(data.email)}>`;
  const footer = `Sent from the ${PRODUCT_NAME} contact form. Reply to this e-mail to answer the sender.`;
  return {
    subject,
    text: [PRODUCT_NAME, '', subject, from, '', data.message, '', '--', footer, ''].join('\n'),
    html: layout(
      subject,
      `<p style="margin:0 0 16px 0;"><strong>${escapeHtml(name)}</strong> &lt;${escapeHtml(oneLine(data.email))}&gt; wrote:</p>` + quote(data.message),
      footer,
    ),
  };
}
