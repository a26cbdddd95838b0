import { NOTIFICATION_TEMPLATES, type NotificationTemplate } from '@medfolio/contracts';
import { escapeHtml } from './html';
import { renderEmail, templateDataProblem } from '.';

const context = { baseUrl: 'https://app.medfolio.example/' };
const HOSTILE = `<script>alert("x")</script> & 'quotes'`;

const SAMPLE: Record<NotificationTemplate, Record<string, string>> = {
  'verification-code': { first_name: 'Ada', code: '4821' },
  'password-reset': { first_name: 'Ada', reset_url: 'https://app.medfolio.example/reset-password/ada%40example.com/tok-123?x=1&y=2' },
  welcome: { first_name: 'Ada' },
  'contact-copy': { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', message: 'Hello,\nplease call me back.' },
  'provider-access-request': { first_name: 'Ada', provider: 'Dr Ana Ruiz (NPI 1234567893)', review_url: 'https://app.medfolio.example/providers/access' },
  'share-link-viewed': { label: 'For Dr Lee', viewed_at: '2026-01-02 10:00 UTC' },
  'billing-receipt': { plan: 'Basic', amount: '$8.64', invoice_number: 'INV-0001', invoice_url: 'https://invoice.stripe.com/i/abc' },
  'payment-failed': { plan: 'Basic', amount: '$8.64', grace_until: '2026-12-01', membership_url: 'https://app.medfolio.example/membership' },
  'referral-invite': { inviter_name: 'Ada', signup_url: 'https://app.medfolio.example/sign-up?ref=ABCD2345' },
  'sign-up-attempt': { first_name: 'Ada', sign_in_url: 'https://app.medfolio.example/login', reset_url: 'https://app.medfolio.example/forgot-password' },
  'sign-in-code': { first_name: 'Ada', code: '4821' },
  'family-invite': { inviter_name: 'Ada', patient_name: 'Leo', role: 'view', accept_url: 'https://app.medfolio.example/family/invite/tok-123', expires_on: '2026-12-04' },
  'family-access-expiring': { first_name: 'Ada', patient_name: 'Ada', expires_on: '2027-06-01', family_url: 'https://app.medfolio.example/family' },
  'family-claim-invite': { inviter_name: 'Ada', patient_name: 'Leo', claim_url: 'https://app.medfolio.example/family/claim/tok-123', expires_on: '2026-12-04' },
  'family-assent-declined': { first_name: 'Ada', patient_name: 'Leo', family_url: 'https://app.medfolio.example/family' },
  'family-coming-of-age': { first_name: 'Ada', patient_name: 'Leo', birthday: '2026-12-20', family_url: 'https://app.medfolio.example/family' },
};

describe('e-mail templates', () => {
  it.each(NOTIFICATION_TEMPLATES)('%s has a subject, a text part and a branded HTML part', (template) => {
    const email = renderEmail(template, SAMPLE[template], context);
    expect(email.subject).toMatch(/Medfolio|contact message/);
    expect(email.text).toContain('Medfolio');
    expect(email.html).toMatch(/^<!doctype html>/);
    expect(email.html).toContain('>Medfolio</td>');
    expect(email.html).toContain(`<title>${escapeHtml(email.subject)}</title>`);
  });

  it('billing: the receipt names the amount, a failed payment the grace date, an invitation carries the sign-up link', () => {
    expect(renderEmail('billing-receipt', SAMPLE['billing-receipt'], context).text).toContain('$8.64 for your Basic plan');
    expect(renderEmail('payment-failed', SAMPLE['payment-failed'], context).text).toContain('until 2026-12-01');
    const invite = renderEmail('referral-invite', SAMPLE['referral-invite'], context);
    expect(invite.subject).toBe('Ada invites you to Medfolio');
    expect(invite.html).toContain('href="https://app.medfolio.example/sign-up?ref=ABCD2345"');
    expect(templateDataProblem('referral-invite', { inviter_name: 'Ada', signup_url: 'javascript:alert(1)' })).toBe('data.signup_url must be an http(s) URL');
  });

  it('verification code: the subject says what it is, both parts carry the code', () => {
    const email = renderEmail('verification-code', SAMPLE['verification-code'], context);
    expect(email.subject).toBe('Your Medfolio verification code');
    expect(email.subject).not.toContain('4821');
    expect(email.text).toContain('4821');
    expect(email.html).toContain('>4821</span>');
    expect(email.text).toContain('Hello Ada,');
  });

  it('password reset: both parts carry the link, the HTML one as an escaped href', () => {
    const url = SAMPLE['password-reset']['reset_url']!;
    const email = renderEmail('password-reset', SAMPLE['password-reset'], context);
    expect(email.subject).toBe('Reset your Medfolio password');
    expect(email.text).toContain(url);
    expect(email.html).toContain(`href="${url.replace(/&/g, '&amp;')}"`);
    expect(email.html).not.toContain('x=1&y=2');
  });

  it('provider access request: "verified" only for an operator-verified provider; otherwise "claims to be ...; not verified"', () => {
    const verified = renderEmail('provider-access-request', { ...SAMPLE['provider-access-request'], verification: 'verified' }, context);
    expect(verified.subject).toBe('A doctor asks to see your documents on Medfolio');
    expect(verified.text).toContain('Dr Ana Ruiz (NPI 1234567893), verified in the national provider registry, opened the summary you shared');
    for (const data of [{ ...SAMPLE['provider-access-request'], verification: 'self_attested' }, SAMPLE['provider-access-request']]) {
      const claimed = renderEmail('provider-access-request', data, context);
      expect(claimed.subject).toBe('Someone asks to see your documents on Medfolio');
      expect(claimed.text).toContain('Someone who claims to be Dr Ana Ruiz (NPI 1234567893); not verified, opened the summary you shared');
      expect(claimed.text).not.toContain('verified in the national provider registry');
      expect(claimed.html).toContain('claims to be Dr Ana Ruiz (NPI 1234567893); not verified');
      expect(claimed.html).toContain('We have not confirmed who this is');
    }
  });

  it('sign-up attempt: tells the owner, links to sign-in and the password reset, carries no secret', () => {
    const email = renderEmail('sign-up-attempt', SAMPLE['sign-up-attempt'], context);
    expect(email.subject).toBe('Someone tried to sign up to Medfolio with your e-mail address');
    expect(email.text).toContain('Sign in: https://app.medfolio.example/login');
    expect(email.text).toContain('Reset your password: https://app.medfolio.example/forgot-password');
    expect(email.html).toContain('href="https://app.medfolio.example/forgot-password"');
    expect(templateDataProblem('sign-up-attempt', { first_name: 'Ada', sign_in_url: 'javascript:alert(1)', reset_url: 'https://x.example/' })).toBe('data.sign_in_url must be an http(s) URL');
  });

  it('sign-in code: the subject says what it is, both parts carry the code', () => {
    const email = renderEmail('sign-in-code', SAMPLE['sign-in-code'], context);
    expect(email.subject).toBe('Your Medfolio sign-in code');
    expect(email.subject).not.toContain('4821');
    expect(email.text).toContain('4821');
    expect(email.html).toContain('>4821</span>');
  });

  it('welcome: links to the product', () => {
    const email = renderEmail('welcome', SAMPLE.welcome, context);
    expect(email.subject).toBe('Welcome to Medfolio');
    expect(email.html).toContain('href="https://app.medfolio.example/"');
    expect(email.text).toContain('https://app.medfolio.example/');
  });

  it('contact copy: names the sender in the subject and keeps the message as written', () => {
    const email = renderEmail('contact-copy', SAMPLE['contact-copy'], context);
    expect(email.subject).toBe('New contact message from Ada Lovelace');
    expect(email.text).toContain('From: Ada Lovelace <ada@example.com>');
    expect(email.text).toContain('Hello,\nplease call me back.');
    expect(email.html).toContain('Hello,\nplease call me back.');
  });

  it.each(NOTIFICATION_TEMPLATES)('%s escapes every user-provided value in the HTML part', (template) => {
    const data = Object.fromEntries(
      Object.entries(SAMPLE[template]).map(([key, value]) => [key, key.endsWith('_url') ? `${value}"><b>&` : HOSTILE]),
    );
    const email = renderEmail(template, data, context);
    expect(email.html).not.toContain('<script>');
    expect(email.html).not.toContain('"><b>');
    if (template !== 'password-reset') expect(email.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;');
  });

  it('keeps line breaks of names out of the subject', () => {
    const email = renderEmail('contact-copy', { ...SAMPLE['contact-copy'], firstname: 'Ada\r\nBcc: x@example.com', lastname: 'L' }, context);
    expect(email.subject).toBe('New contact message from Ada Bcc: L');
    expect(email.subject).not.toMatch(/[\r\n]/);
  });

  it('greets without a name when there is none', () => {
    expect(renderEmail('welcome', { first_name: '  ' }, context).text).toContain('Hello,\n');
  });

  describe('text people typed: no links, bounded', () => {
    const LURES = [
      'https://evil.example/login',
      'http://evil.example',
      'www.evil.example',
      'evil.example/claim',
      'EVIL.EXAMPLE',
      'evil\uFF0Eexample',
      'evil\u3002example',
      'evil\u200B.example',
      'support@evil.example',
      '203.0.113.9/pay',
      'javascript:alert(1)',
      '//evil.example',
    ];
    const traces = /evil|203\.0\.113|javascript|alert/i;

    it.each(LURES)('a phishing inviter name (%s) reaches neither the subject nor the body of an invitation', (lure) => {
      const email = renderEmail('referral-invite', { ...SAMPLE['referral-invite'], inviter_name: `Claim your refund at ${lure} now` }, context);
      expect(email.subject).toBe('Claim your refund at now invites you to Medfolio');
      for (const part of [email.subject, email.text, email.html]) expect(part).not.toMatch(traces);
      expect(email.text).toContain('Sign up: https://app.medfolio.example/sign-up?ref=ABCD2345');
    });

    it('an inviter name that is only a link becomes "A friend"; a long one is cut', () => {
      expect(renderEmail('referral-invite', { ...SAMPLE['referral-invite'], inviter_name: 'https://evil.example' }, context).subject).toBe('A friend invites you to Medfolio');
      const long = renderEmail('referral-invite', { ...SAMPLE['referral-invite'], inviter_name: `Ada ${'x'.repeat(1000)}` }, context);
      const name = long.subject.replace(' invites you to Medfolio', '');
      expect(Array.from(name)).toHaveLength(40);
      expect(name.endsWith('…')).toBe(true);
      expect(long.text).toContain(`${name} uses Medfolio`);
    });

    it('keeps ordinary names as they are', () => {
      for (const name of ['Ada', 'Jean-Luc Picard', "Siobhán O'Brien", 'Dr. Ana Ruiz', '李小龙', 'J. R. R. Tolkien']) {
        expect(renderEmail('referral-invite', { ...SAMPLE['referral-invite'], inviter_name: name }, context).subject).toBe(`${name} invites you to Medfolio`);
      }
    });

    // Every template field that carries what a person typed (the rest the product writes itself).
    const USER_FIELDS: [NotificationTemplate, string][] = [
      // The recipient's first name, in every template that greets by name (a later template included).
      ...NOTIFICATION_TEMPLATES.filter((t) => 'first_name' in SAMPLE[t]).map((t): [NotificationTemplate, string] => [t, 'first_name']),
      ['contact-copy', 'firstname'],
      ['contact-copy', 'lastname'],
      ['provider-access-request', 'provider'],
      ['share-link-viewed', 'label'],
      ['referral-invite', 'inviter_name'],
    ];

    it.each(USER_FIELDS)('%s.%s: no link and no more than its bound, in the subject or the body', (template, field) => {
      const data = { ...SAMPLE[template], [field]: `Hi https://evil.example/a www.evil.example evil.example ${'y'.repeat(300)}` };
      const email = renderEmail(template, data, context);
      for (const part of [email.subject, email.text, email.html]) expect(part).not.toMatch(traces);
      expect(email.text).not.toContain('y'.repeat(101));
      expect(Array.from(email.subject).length).toBeLessThan(200);
    });

    it('contact-copy: the message stays readable for support, but no word in it is a link', () => {
      const email = renderEmail('contact-copy', { ...SAMPLE['contact-copy'], message: 'Your page https://evil.example/x is broken,\nsee www.evil.example or mail me@evil.example' }, context);
      expect(email.text).toContain('Your page https[:]//evil[.]example/x is broken,\nsee www[.]evil[.]example or mail me[at]evil[.]example');
      for (const part of [email.text, email.html]) expect(part).not.toMatch(/evil\.example|https:\/\/evil/);
    });
  });

  describe('data checks', () => {
    it.each(NOTIFICATION_TEMPLATES)('%s: complete sample data is accepted', (template) => {
      expect(templateDataProblem(template, SAMPLE[template])).toBeNull();
    });

    it('names a missing field, never a value', () => {
      expect(templateDataProblem('verification-code', { first_name: 'Ada' })).toBe('data.code is required for the verification-code template');
      expect(templateDataProblem('contact-copy', { firstname: 'a', lastname: 'b', email: 'c' })).toBe('data.message is required for the contact-copy template');
    });

    it('refuses an empty code, a non-http reset link and over-long values', () => {
      expect(templateDataProblem('verification-code', { first_name: 'Ada', code: ' ' })).toBe('data.code must not be empty');
      expect(templateDataProblem('password-reset', { first_name: 'Ada', reset_url: 'javascript:alert(1)' })).toBe('data.reset_url must be an http(s) URL');
      expect(templateDataProblem('welcome', { first_name: 'x'.repeat(2001) })).toBe('data.first_name is too long');
      expect(() => renderEmail('password-reset', { first_name: 'Ada', reset_url: 'data:text/html,x' }, context)).toThrow(/http\(s\)/);
    });
  });
});
