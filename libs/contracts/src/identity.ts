import { Transform } from 'class-transformer';
import { IsPhone, limitExceeded } from './field-rules';
import type { ProviderFacts } from './providers';
import { NonEmptyString, rules, stacked } from './rules';
import { IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, IsUUID, Length, Matches, MaxLength, MinLength } from 'class-validator';

/**
 * Account calls (spec section 7). Field names are the spec's; messages are the spec's where it
 * gives them (section 5), and plain sentences elsewhere.
 */
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const LIMIT = limitExceeded(100);
const PASSWORD_MIN = 'Password must be at least 8 characters.';

/** Required text, trimmed, at most `max` characters ('Limit exceeded (max characters)' beyond). */
function RequiredText(message: string, max = 100): PropertyDecorator {
  return rules(Transform(trim), IsString({ message }), IsNotEmpty({ message }), MaxLength(max, { message: limitExceeded(max) }));
}

/** Optional text, trimmed, at most 100 characters. */
function OptionalText(): PropertyDecorator {
  return rules(Transform(trim), IsOptional(), IsString(), MaxLength(100, { message: LIMIT }));
}

/** Required text taken as sent (not trimmed): `message` when missing or empty, `tooLong` (or class-validator's words) beyond `max` characters. */
function RequiredString(message: string, max: number, tooLong?: string): PropertyDecorator {
  return stacked(IsString({ message }), IsNotEmpty({ message }), tooLong === undefined ? MaxLength(max) : MaxLength(max, { message: tooLong }));
}

/** A password: required, 8 to 100 characters, no composition rules. */
function NewPassword(message: string): PropertyDecorator {
  return rules(IsString({ message }), IsNotEmpty({ message }), MinLength(8, { message: PASSWORD_MIN }), MaxLength(100, { message: LIMIT }));
}

export class RegisterDto {
  @RequiredText('Name is required')
  first_name!: string;

  /** The spec's web form sends it empty. */
  @OptionalText()
  last_name?: string;

  @RequiredText('Mobile number is required')
  @IsPhone()
  phone!: string;

  @RequiredText('Email is required')
  @IsEmail({}, { message: 'Enter a valid e-mail address.' })
  email!: string;

  @NewPassword('Password is required')
  password!: string;

  @IsString({ message: 'Date of birth is required' })
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'Date of birth must be a date written YYYY-MM-DD.' })
  date_of_birth!: string;

  /** A referral code from the sign-up link (/sign-up?ref=CODE). One that names nobody is ignored. */
  @IsOptional()
  @IsString()
  @MaxLength(32, { message: 'The referral code is not valid.' })
  ref?: string;
}

export class EmailDto {
  @RequiredText('Email is required')
  email!: string;
}

export class LoginDto extends EmailDto {
  /** Not trimmed, and no minimum: a password is checked, not judged, at sign-in. */
  @RequiredString('Password is required', 100, LIMIT)
  password!: string;
}

export class VerifyOtpDto extends EmailDto {
  @Transform(trim)
  @IsString({ message: 'Code is required' })
  @Length(1, 6, { message: 'Enter the 4-digit code.' })
  otp!: string;
}

export class RefreshDto {
  /** Only a sanity bound: any wrong token (an access token too) gets identity's 401, not a 400. */
  @RequiredString('Refresh token is required', 4096, 'Invalid refresh token')
  refresh!: string;
}

export class LogoutDto {
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  refresh?: string;
}

export class ResetPasswordDto extends EmailDto {
  @NewPassword('Password is required')
  password!: string;

  @RequiredString('The reset link is incomplete.', 200, 'The reset link is invalid.')
  token!: string;
}

export class ChangePasswordDto {
  @RequiredString('Current password is required', 100, LIMIT)
  old_password!: string;

  @NewPassword('New password is required')
  new_password!: string;
}

export class GoogleLoginDto {
  @RequiredString('Google login failed: No credential returned', 4096, 'Google login failed: the credential is too long')
  token!: string;
}

/** The body of POST /api/login-with-oidc/{provider}/: the browser's authorization code and its PKCE and nonce values. */
export class OidcCodeDto {
  @RequiredString('Sign-in failed: no authorization code returned', 2048)
  code!: string;

  /** PKCE (RFC 7636): 43 to 128 unreserved characters. */
  @IsString()
  @Matches(/^[A-Za-z0-9._~-]{43,128}$/, { message: 'Sign-in failed: invalid code verifier' })
  code_verifier!: string;

  @IsString()
  @Matches(/^[A-Za-z0-9._~-]{16,128}$/, { message: 'Sign-in failed: invalid nonce' })
  nonce!: string;

  /** The redirect URI used in the authorization request: `<origin>/auth/oidc/<provider>/callback`. */
  @IsString()
  @MaxLength(512)
  redirect_uri!: string;
}

/** Signing in with a configured OpenID Connect provider: the route's provider name and the body. */
export class OidcLoginDto extends OidcCodeDto {
  @IsString()
  @Matches(/^[a-z][a-z0-9-]{0,31}$/, { message: 'Unknown sign-in provider' })
  provider!: string;
}

/** A configured OpenID Connect provider, as the web app needs it to start the sign-in (public values only). */
export interface OidcProviderInfo {
  name: string;
  label: string;
  authorization_url: string;
  client_id: string;
  scope: string;
  /**
   * How the provider answers: `query` sends the browser back to `/auth/oidc/<name>/callback?code=…`;
   * `form_post` (Apple, when the e-mail or name is asked for) posts the code to
   * `/api/login-with-oidc/<name>/callback/`, which sends the browser on to that page. The web app
   * then asks for `response_mode=form_post` and uses that route as the redirect_uri.
   */
  response_mode: 'query' | 'form_post';
}

export interface OidcProvidersReply {
  providers: OidcProviderInfo[];
}

export const GENDERS = ['female', 'male', 'other', 'undisclosed'] as const;
export type Gender = (typeof GENDERS)[number];

export class UpdateProfileDto {
  @RequiredText('First name is required')
  first_name!: string;

  @OptionalText()
  last_name?: string;

  @RequiredText('Mobile number is required')
  @IsPhone()
  phone!: string;

  /** Absent: unchanged; '' clears it. */
  @IsOptional()
  @IsIn([...GENDERS, ''], { message: `Gender must be one of: ${GENDERS.join(', ')}.` })
  gender?: Gender | '';

  /** Absent: unchanged. YYYY-MM-DD, a real date, not in the future. */
  @IsOptional()
  @IsString({ message: 'Date of birth must be a date written YYYY-MM-DD.' })
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'Date of birth must be a date written YYYY-MM-DD.' })
  date_of_birth?: string;
}

export interface TokenPair {
  access: string;
  refresh: string;
}

export interface MessageReply {
  message: string;
}

/**
 * POST /api/verify-otp/: the spec's `message`, and, when this call verified the address, a session
 * (`access`, `refresh`) so the user goes on signed in instead of typing the password again.
 */
export interface VerifyOtpReply extends MessageReply {
  access?: string;
  refresh?: string;
}

export interface ForgotPasswordReply extends MessageReply {
  /** Always null: the secret goes only by e-mail (the spec's client reads this field). */
  token: null;
}

/**
 * identity to the gateway, on a sign-out, a password change and a reset: `revoked_session_ids` names
 * the sign-ins the call revoked, so the gateway that served it refuses their access tokens before it
 * answers (the others learn through identity.user.sessions-revoked.v1). The gateway does not pass it
 * on: the HTTP answer is the reply without it.
 */
export interface RevokedSessions {
  revoked_session_ids?: string[];
}

export type LogoutReply = MessageReply & RevokedSessions;

export interface ChangePasswordReply extends MessageReply {
  detail: string;
}

export interface Profile {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  profile_picture: string | null;
  date_of_birth: string | null;
  gender: Gender | null;
  email_verified: boolean;
  /** 'patient' for everyone; 'provider' too once a licence is verified. */
  roles: string[];
  /** The registry's facts once a licence is verified, otherwise null. */
  provider: ProviderFacts | null;
}

/** Events identity publishes through its outbox on the IDENTITY stream. */
export class UserRegisteredEvent {
  @NonEmptyString(128)
  user_id!: string;

  /** As the account holds it (a sign-in provider's address is not re-checked): text, trimmed. */
  @NonEmptyString(320)
  @Transform(trim)
  email!: string;

  @IsString()
  first_name!: string;

  /** The referral code the account signed up with (billing's referral programme), or null. */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  referral_code!: string | null;
}
/** identity.user.verified.v1 carries the same fields. */
export const UserVerifiedEvent = UserRegisteredEvent;
export type UserVerifiedEvent = UserRegisteredEvent;

/**
 * The longest an access token may live (ACCESS_TOKEN_TTL_SECONDS is at most this). Gateways keep a
 * revoked sign-in this long, and refuse tokens that claim a longer life.
 */
export const MAX_ACCESS_TOKEN_TTL_SECONDS = 3600;

/**
 * Sign-ins revoked (sign-out, password reset or change, a refresh token used twice): every gateway
 * refuses access tokens with these `sid`s from then on, although they have not expired.
 */
export interface SessionsRevokedEvent {
  user_id: string;
  session_ids: string[];
  /** ISO time of the revocation. */
  revoked_at: string;
  reason: string;
}

export const IDENTITY_SUBJECTS = {
  register: 'identity.user.register',
  login: 'identity.session.login',
  loginWithGoogle: 'identity.session.login-with-google',
  oidcProviders: 'identity.session.oidc-providers',
  loginWithOidc: 'identity.session.login-with-oidc',
  refresh: 'identity.session.refresh',
  logout: 'identity.session.logout',
  verifyOtp: 'identity.otp.verify',
  resendOtp: 'identity.otp.resend',
  forgotPassword: 'identity.password.forgot',
  resetPassword: 'identity.password.reset',
  changePassword: 'identity.password.change',
  getProfile: 'identity.profile.get',
  updateProfile: 'identity.profile.update',
  /** Events */
  registered: 'identity.user.registered.v1',
  verified: 'identity.user.verified.v1',
  sessionsRevoked: 'identity.user.sessions-revoked.v1',
} as const;

/**
 * identity, service to service only (no gateway route; kept apart from IDENTITY_SUBJECTS so the
 * gateway's routes cannot name it).
 */
export const IDENTITY_SERVICE_SUBJECTS = {
  /**
   * PatientIdentityDto → PatientIdentity: a patient's name and date of birth, for what they share
   * (the shared page, its PDF and IPS name the patient unless the link hides it). Asked by
   * the summary service at the time of each read, so a renamed account shows its current name; the
   * read is audited there, as the view it serves.
   */
  patientIdentity: 'identity.user.patient-identity',
} as const;

export class PatientIdentityDto {
  @IsUUID('all', { message: 'User not found.' })
  user_id!: string;
}

/** A patient as their shared summary names them (the account's own spelling). */
export interface PatientIdentity {
  first_name: string;
  last_name: string;
  /** YYYY-MM-DD, or null when the account has none. */
  date_of_birth: string | null;
}
