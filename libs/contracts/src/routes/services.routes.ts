import { BILLING_SUBJECTS, CheckoutDto, InviteDto } from '../billing';
import { ContactMessageDto, NOTIFICATIONS_SUBJECTS } from '../notifications';
import { PassSettingsDto, WALLET_SUBJECTS } from '../wallet';
import { forward, handled, ownRead } from './route';

const APPLE_PASS_PARAMS = {
  device: { description: "The device's library identifier" },
  passType: { description: 'The pass type identifier' },
  serial: { description: "The pass's serial number" },
} as const;

/** Plans and payments, referrals, the wallet pass, the contact form, the web app's settings, readiness. */
export const SERVICE_ROUTES = {
  billingPlans: forward(BILLING_SUBJECTS.plans, {
    method: 'GET', path: '/api/plans/', tag: 'billing', auth: 'public', rateLimit: 'per-client',
    summary: 'The plans and their prices (public), and whether payments are configured',
    reply: { status: 200, shape: 'PlansReply' },
    errors: {},
  }),
  billingMembership: ownRead(BILLING_SUBJECTS.membership, '/api/membership/', 'billing',
    "The signed-in user's plan: price, period, autopay and the next payment", 'MembershipView'),
  billingCheckout: forward(BILLING_SUBJECTS.checkout, {
    method: 'POST', path: '/api/stripe/checkout/', tag: 'billing', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Buy a plan (a new subscription: the first payment is confirmed with Stripe.js) or change plan (prorated)',
    description: 'The total is the price plus 8% tax, rounded to cents. The plan starts when Stripe confirms the payment (webhook).',
    body: CheckoutDto,
    reply: { status: 200, shape: 'CheckoutReply' },
    errors: { 400: "'Invalid plan selected.'", 409: 'Already on this plan', 502: 'Stripe refused or failed the call', 503: 'Payments are not configured on this server' },
  }),
  billingCancel: forward(BILLING_SUBJECTS.cancel, {
    method: 'POST', path: '/api/membership/cancel/', tag: 'billing', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Cancel the paid plan: it runs to the end of the period, then the account is on Free',
    reply: { status: 200, shape: 'MembershipView' },
    errors: { 404: 'You have no paid plan to cancel.', 409: 'Your plan is already set to end at the end of the period.' },
  }),
  billingWebhook: handled({
    method: 'POST', path: '/api/stripe/webhook/', tag: 'billing', auth: 'stripe-signature', rateLimit: 'none',
    summary: "Stripe's webhook: payment and subscription events, checked by their Stripe-Signature over the raw body",
    rawBody: { type: 'application/json', schema: { type: 'object', description: 'A Stripe Event object' } },
    reply: { status: 200, shape: 'WebhookReply' },
    errors: { 400: 'The webhook signature is not valid.' },
    internal: true,
  }),
  billingReferral: ownRead(BILLING_SUBJECTS.referral, '/api/referral/', 'billing',
    'Your referral code and link, and how many friends were invited, joined and counted', 'ReferralView'),
  billingInvite: forward(BILLING_SUBJECTS.invite, {
    method: 'POST', path: '/api/referral/invite/', tag: 'billing', auth: 'bearer', rateLimit: 'mail',
    summary: 'E-mail a friend your sign-up link; the answer is the same for any address',
    body: InviteDto,
    reply: { status: 200, shape: 'MessageReply' },
    errors: { 400: "'Invalid email', 'You cannot invite yourself.'", 429: 'Too many invitations today' },
  }),
  walletPassUrl: ownRead(WALLET_SUBJECTS.passUrl, '/api/get-pass-url/', 'wallet',
    "A short-lived download link of the caller's signed Apple Wallet pass", 'PassUrlReply', {
      description: 'The pass carries no health data: a QR code of the default share link, and the holder\'s first name if they chose to show it.',
      errors: { 503: 'The pass could not be made right now' },
      // Making a pass makes the record's default share link (its QR code): a change, like making a link.
      onBehalf: 'manage',
    }),
  walletPassStatus: ownRead(WALLET_SUBJECTS.passStatus, '/api/wallet/status/', 'wallet',
    'Whether the caller has a wallet pass, and whether the last one was retired (its link revoked). Makes nothing.', 'PassStatus', { onBehalf: 'view' }),
  walletPassView: ownRead(WALLET_SUBJECTS.passView, '/api/wallet/pass/', 'wallet',
    "What the caller's pass shows: the same fields the signed pass carries", 'PassView', { onBehalf: 'view' }),
  walletSettings: forward(WALLET_SUBJECTS.updateSettings, {
    onBehalf: 'manage',
    method: 'PUT', path: '/api/wallet/settings/', tag: 'wallet', auth: 'bearer', rateLimit: 'per-client',
    summary: "Show or hide the holder's first name on the pass (devices holding it are told)",
    body: PassSettingsDto,
    reply: { status: 200, shape: 'PassView' },
    errors: {},
  }),
  walletGoogle: ownRead(WALLET_SUBJECTS.googleSaveUrl, '/api/wallet/google/', 'wallet',
    "A 'Save to Google Wallet' link (https://pay.google.com/gp/v/save/{jwt}) carrying the same QR link", 'PassUrlReply', {
      errors: { 503: 'Google Wallet is not configured' },
      onBehalf: 'manage',
    }),
  passkitRegister: handled({
    method: 'POST', path: '/api/passkit/v1/devices/{device}/registrations/{passType}/{serial}', tag: 'wallet', auth: 'apple-pass', rateLimit: 'none',
    summary: "Apple Wallet: a device registers for a pass's updates",
    params: APPLE_PASS_PARAMS,
    rawBody: { type: 'application/json', schema: { type: 'object', properties: { pushToken: { type: 'string' } } } },
    reply: { status: 201, description: 'Registered', others: { 200: 'It already was' } },
    errors: { 401: "The pass's token is not valid, or the pass was retired", 404: 'No such pass type or serial number' },
    internal: true,
  }),
  passkitUnregister: handled({
    method: 'DELETE', path: '/api/passkit/v1/devices/{device}/registrations/{passType}/{serial}', tag: 'wallet', auth: 'apple-pass', rateLimit: 'none',
    summary: 'Apple Wallet: a device stops receiving updates for a pass',
    params: APPLE_PASS_PARAMS,
    reply: { status: 200, description: 'Unregistered' },
    errors: { 401: "The pass's token is not valid, or the pass was retired", 404: 'No such pass type or serial number' },
    internal: true,
  }),
  passkitUpdated: handled({
    method: 'GET', path: '/api/passkit/v1/devices/{device}/registrations/{passType}', tag: 'wallet', auth: 'public', rateLimit: 'none',
    summary: "Apple Wallet: the serial numbers of a device's passes updated since a time",
    params: { device: APPLE_PASS_PARAMS.device, passType: APPLE_PASS_PARAMS.passType },
    queryDocs: { passesUpdatedSince: { description: 'The lastUpdated of the previous answer' } },
    reply: { status: 200, shape: 'PassKitSerialsReply', description: 'Updated passes', others: { 204: 'No pass was updated' } },
    errors: { 404: 'No such pass type' },
    internal: true,
  }),
  passkitPass: handled({
    method: 'GET', path: '/api/passkit/v1/passes/{passType}/{serial}', tag: 'wallet', auth: 'apple-pass', rateLimit: 'none',
    summary: 'Apple Wallet: the latest version of a pass (304 when not modified since If-Modified-Since)',
    params: { passType: APPLE_PASS_PARAMS.passType, serial: APPLE_PASS_PARAMS.serial },
    reply: { status: 200, media: { type: 'application/vnd.apple.pkpass', schema: 'binary' }, headers: { 'last-modified': 'When the pass last changed' }, others: { 302: 'With presigned S3 downloads: the pass is at Location', 304: 'Not modified since If-Modified-Since' } },
    errors: { 401: "The pass's token is not valid, or the pass was retired", 404: 'No such pass type or serial number' },
    internal: true,
  }),
  passkitLog: handled({
    method: 'POST', path: '/api/passkit/v1/log', tag: 'wallet', auth: 'public', rateLimit: 'none',
    summary: "Apple Wallet: a device's error log lines (kept in the service log, without pass data)",
    rawBody: { type: 'application/json', schema: { type: 'object', properties: { logs: { type: 'array', items: { type: 'string' } } } } },
    reply: { status: 200, description: 'Received' },
    errors: {},
    internal: true,
  }),
  contactSubmit: forward(NOTIFICATIONS_SUBJECTS.submitContact, {
    method: 'POST', path: '/api/contact/', tag: 'contact', auth: 'bearer-if-sent', rateLimit: 'mail',
    summary: 'Send a message to support (the contact form); no sign-in needed',
    description:
      'Signed in (a bearer token sent), the message names the account; from the Plus and Family plans it goes to support marked priority ' +
      '(subject prefixed "[PRIORITY]") and the reply says so, with the promised answer time (`answer_within_hours`, 4 by default; 48 otherwise).',
    body: ContactMessageDto,
    reply: { status: 200, shape: 'ContactReply' },
    errors: {
      400: "A field is missing ('Firstname is required', ...), too long ('Limit exceeded (100 characters)'), or the e-mail is not one ('Invalid email')",
      401: 'An access token was sent and is not valid',
      429: 'More than 10 messages an hour from one address',
    },
  }),
  clientConfigGet: handled({
    method: 'GET', path: '/api/client-config/', tag: 'web', auth: 'public', rateLimit: 'per-client',
    summary: 'Public settings for the web app (Google sign-in client id and authorization URL, the wallets offered, the Stripe.js publishable key)',
    reply: { status: 200, shape: 'ClientConfigReply' },
    errors: {},
  }),
  healthGet: handled({
    method: 'GET', path: '/api/health/', tag: 'health', auth: 'public', rateLimit: 'none',
    summary: 'Readiness of the gateway and of every service behind it',
    reply: { status: 200, shape: 'SystemHealthReply', description: 'Everything is ready' },
    upstream: false,
    errors: { 503: { description: 'At least one part is not ready; the body says which', shape: 'SystemHealthReply' } },
  }),
} as const;
