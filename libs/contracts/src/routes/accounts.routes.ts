import { EmailDto, GoogleLoginDto, IDENTITY_SUBJECTS, LoginDto, LogoutDto, OidcCodeDto, RefreshDto, RegisterDto, ResetPasswordDto, VerifyOtpDto } from '../identity';
import { ChangePasswordDto, UpdateProfileDto } from '../identity';
import { forward, handled, ownRead } from './route';

/** Sign-up, verification, sign-in (password, Google, other OpenID Connect providers), tokens, sign-out, passwords, the profile. */
export const ACCOUNT_ROUTES = {
  authRegister: forward(IDENTITY_SUBJECTS.register, {
    method: 'POST', path: '/api/register/', tag: 'accounts', auth: 'public', rateLimit: 'per-client',
    summary: 'Create an account (unverified) and e-mail a 4-digit code. A taken address gets the same answer; its owner is e-mailed instead',
    body: RegisterDto,
    reply: { status: 201, shape: 'RegisterReply' },
    errors: { 400: "A field is missing or not valid ('Name is required', 'Password must be at least 8 characters.', ...)" },
  }),
  authVerifyOtp: forward(IDENTITY_SUBJECTS.verifyOtp, {
    method: 'POST', path: '/api/verify-otp/', tag: 'accounts', auth: 'public', rateLimit: 'per-client',
    summary: 'Verify the e-mail address with the 4-digit code, or finish a step-up sign-in with the e-mailed sign-in code (both answer with a session)',
    body: VerifyOtpDto,
    reply: { status: 200, shape: 'VerifyOtpReply' },
    errors: { 400: 'Wrong or expired code (the message says which and what to do)', 404: 'No account with this address', 429: 'Too many wrong codes: wait (Retry-After)' },
  }),
  authResendOtp: forward(IDENTITY_SUBJECTS.resendOtp, {
    method: 'POST', path: '/api/resend-otp/', tag: 'accounts', auth: 'public', rateLimit: 'mail',
    summary: 'Send a new code (at most one per 30 s, five per hour)',
    body: EmailDto,
    reply: { status: 200, shape: 'MessageReply' },
    errors: { 400: 'Email is required', 404: 'No account with this address', 409: 'Already verified' },
  }),
  authLogin: forward(IDENTITY_SUBJECTS.login, {
    method: 'POST', path: '/api/login/', tag: 'accounts', auth: 'public', rateLimit: 'per-client',
    summary: 'Sign in with e-mail and password',
    description:
      '401 for wrong credentials, 403 for an unverified account; 403 STEP_UP_REQUIRED from a new device while the account sees many failed sign-ins ' +
      '(the same answer whatever the password; with the right one a sign-in code is e-mailed, for POST /api/verify-otp/).',
    body: LoginDto,
    reply: { status: 200, shape: 'TokenPair' },
    errors: { 401: 'Wrong e-mail address or password.', 403: 'The account is not verified yet, or a sign-in code was e-mailed (STEP_UP_REQUIRED)' },
  }),
  authLoginWithGoogle: forward(IDENTITY_SUBJECTS.loginWithGoogle, {
    method: 'POST', path: '/api/login-with-google/', tag: 'accounts', auth: 'public', rateLimit: 'per-client',
    summary: 'Sign in with a Google ID token or access token',
    body: GoogleLoginDto,
    reply: { status: 200, shape: 'TokenPair' },
    errors: { 401: 'Google did not vouch for this sign-in', 409: 'The account with this e-mail address signs in with another Google account', 503: 'Google sign-in is not configured, or Google cannot be reached' },
  }),
  authOidcProviders: forward(IDENTITY_SUBJECTS.oidcProviders, {
    method: 'GET', path: '/api/login-with-oidc/providers/', tag: 'accounts', auth: 'public', rateLimit: 'per-client',
    summary: 'The OpenID Connect sign-in providers configured besides Google (Apple, Microsoft, ...), with what the web app needs to start the sign-in',
    reply: { status: 200, shape: 'OidcProvidersReply' },
    errors: {},
  }),
  authLoginWithOidc: forward(IDENTITY_SUBJECTS.loginWithOidc, {
    method: 'POST', path: '/api/login-with-oidc/{provider}/', tag: 'accounts', auth: 'public', rateLimit: 'per-client',
    summary: 'Sign in with a configured OpenID Connect provider: identity exchanges the authorization code (with the PKCE verifier) and checks the ID token',
    params: { provider: { description: 'A configured provider name (GET /api/login-with-oidc/providers/)' } },
    body: OidcCodeDto,
    reply: { status: 200, shape: 'TokenPair' },
    errors: { 401: 'The provider did not vouch for this sign-in', 404: 'No such provider', 409: 'The account with this e-mail address signs in with another account of this provider', 503: 'The provider cannot be reached' },
  }),
  authOidcFormPostCallback: handled({
    method: 'POST', path: '/api/login-with-oidc/{provider}/callback/', tag: 'accounts', auth: 'public', rateLimit: 'per-client',
    summary: "A provider's form POST (response_mode=form_post, Apple's when the e-mail or name is asked for): sends the browser on to the web app's callback page with the code and state",
    description:
      'The browser arrives here from the provider, not from the web app. The answer is 303 to `/auth/oidc/{provider}/callback?code=…&state=…` ' +
      "(or `?error=…`), where the web app checks the state and finishes the sign-in with POST /api/login-with-oidc/{provider}/ and this route's address as redirect_uri. " +
      "Nothing is exchanged here. Apple's `user` field (the name, sent at the first sign-in only) is not used.",
    params: { provider: { description: 'A provider name (lower-case letters, digits and dashes): the one configured with response_mode form_post' } },
    rawBody: {
      type: 'application/x-www-form-urlencoded',
      description: 'At most 16 KB',
      schema: {
        type: 'object',
        properties: {
          code: { type: 'string', description: 'The authorization code' },
          state: { type: 'string', description: 'The state the web app sent' },
          error: { type: 'string', description: 'Set instead of code when the provider refused or the person cancelled' },
          user: { type: 'string', description: "Apple's JSON with the person's name, at the first sign-in (ignored)" },
        },
      },
    },
    reply: { status: 303, description: "On to the web app's callback page", headers: { Location: '`/auth/oidc/{provider}/callback?code=…&state=…`, or `?error=…`' } },
    errors: { 400: 'Not a provider name, a field too long, or neither code nor error', 413: 'The form is larger than 16 KB', 415: 'Not a form (application/x-www-form-urlencoded)' },
    internal: true,
  }),
  authRefresh: forward(IDENTITY_SUBJECTS.refresh, {
    method: 'POST', path: '/api/token/refresh/', tag: 'accounts', auth: 'public', rateLimit: 'per-client',
    summary: 'Exchange a refresh token for a new pair (the old one is used up)',
    body: RefreshDto,
    reply: { status: 200, shape: 'TokenPair' },
    errors: { 401: 'Invalid refresh token (unknown, used, expired or revoked)' },
  }),
  authLogout: forward(IDENTITY_SUBJECTS.logout, {
    method: 'POST', path: '/api/logout/', tag: 'accounts', auth: 'bearer-optional', rateLimit: 'per-client',
    summary: 'Sign out: revokes this sign-in (by its refresh token, or the access token used); its access tokens are refused from the answer on',
    body: LogoutDto,
    bodyOptional: true,
    reply: { status: 200, shape: 'MessageReply' },
    errors: {},
    after: 'revoke-sessions',
  }),
  authForgot: forward(IDENTITY_SUBJECTS.forgotPassword, {
    method: 'POST', path: '/api/forgot-password/', tag: 'accounts', auth: 'public', rateLimit: 'mail',
    summary: 'E-mail a password reset link. The same answer whether or not the account exists; `token` is always null',
    body: EmailDto,
    reply: { status: 200, shape: 'ForgotPasswordReply' },
    errors: {},
  }),
  authReset: forward(IDENTITY_SUBJECTS.resetPassword, {
    method: 'POST', path: '/api/reset-password/', tag: 'accounts', auth: 'public', rateLimit: 'per-client',
    summary: 'Set a new password with the e-mailed link; signs out everywhere',
    body: ResetPasswordDto,
    reply: { status: 200, shape: 'MessageReply' },
    errors: { 400: 'The reset link is invalid or has expired, or the password is not valid' },
    after: 'revoke-sessions',
  }),
  profileGet: ownRead(IDENTITY_SUBJECTS.getProfile, '/api/profile/', 'profile',
    "The signed-in user's profile", 'Profile', {
      errors: { 404: 'The account no longer exists' },
    }),
  profileUpdate: forward(IDENTITY_SUBJECTS.updateProfile, {
    method: 'PUT', path: '/api/profile/', tag: 'profile', auth: 'bearer', rateLimit: 'per-client',
    summary: "Change the profile's details (name, phone, ...): only the fields sent",
    body: UpdateProfileDto,
    reply: { status: 200, shape: 'Profile' },
    errors: {},
  }),
  profileChangePassword: forward(IDENTITY_SUBJECTS.changePassword, {
    method: 'PUT', path: '/api/change/password/', tag: 'profile', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Change the password (the current one is checked); other sign-ins are revoked',
    body: ChangePasswordDto,
    reply: { status: 200, shape: 'ChangePasswordReply' },
    errors: { 400: 'The current password is wrong, or the new one is not valid' },
    after: 'revoke-sessions',
  }),
  profilePictureUpload: handled({
    method: 'POST', path: '/api/profile/picture/', tag: 'profile', auth: 'bearer', rateLimit: 'per-client',
    summary: 'Upload a profile picture (JPEG, PNG, WebP or GIF, checked by content); stored resized to 400x400',
    rawBody: {
      type: 'multipart/form-data',
      schema: { type: 'object', required: ['picture'], properties: { picture: { type: 'string', format: 'binary' } } },
    },
    reply: { status: 200, shape: 'Profile', description: 'The updated profile, with the new picture URL' },
    errors: { 400: 'Not multipart, or no picture in the field "picture"', 413: 'The picture is too large', 415: 'Not a picture of an accepted type' },
  }),
} as const;
