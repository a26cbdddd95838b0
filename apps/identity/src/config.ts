import { IsBoolean, IsOptional, IsString, Matches } from 'class-validator';
import { Env, HttpUrl, InternalHttpConfig, WholeNumber, WithPublicUrl } from '@medfolio/config';
import { MAX_ACCESS_TOKEN_TTL_SECONDS } from '@medfolio/contracts';

export class IdentityConfig extends WithPublicUrl(InternalHttpConfig) {
  /** Private signing keys as a JSON array of JWKs (ES256, each with a kid; the first signs). Unset: the key ring in DATA_DIR. */
  @Env('JWT_SIGNING_KEYS', { sensitive: true })
  @IsOptional()
  @IsString()
  signingKeys?: string;

  /** HMAC key for verification codes (32+ characters). Unset: generated once into DATA_DIR. */
  @Env('IDENTITY_SECRET', { sensitive: true, serviceSecret: { how: '32+ random characters, the same in every identity replica (e.g. openssl rand -base64 32)' } })
  @IsOptional()
  @IsString()
  @Matches(/^.{32,}$/, { message: 'must be at least 32 characters' })
  secret?: string;

  @Env('ACCESS_TOKEN_TTL_SECONDS')
  @WholeNumber(60, MAX_ACCESS_TOKEN_TTL_SECONDS)
  accessTokenTtlSeconds = 900;

  @Env('REFRESH_TOKEN_TTL_DAYS')
  @WholeNumber(1)
  refreshTokenTtlDays = 30;

  /**
   * Presenting a refresh token that was rotated less than this many seconds ago answers 401 but
   * does not revoke the sign-in: a browser's parallel requests refreshing at once is not theft.
   */
  @Env('REFRESH_REUSE_GRACE_SECONDS')
  @WholeNumber(0)
  refreshReuseGraceSeconds = 10;

  /** Failed attempts per account per hour (login, code, reset) before clients the account does not know get 429. */
  @Env('AUTH_FAILURES_PER_ACCOUNT_PER_HOUR')
  @WholeNumber(1)
  failuresPerAccountPerHour = 100;

  /** Failed attempts on one account from one client address per hour before that pair gets 429. */
  @Env('AUTH_FAILURES_PER_ACCOUNT_PER_CLIENT_PER_HOUR')
  @WholeNumber(1)
  failuresPerAccountPerClientPerHour = 10;

  /** Failed attempts per client address per hour before 429. */
  @Env('AUTH_FAILURES_PER_IP_PER_HOUR')
  @WholeNumber(1)
  failuresPerIpPerHour = 300;

  /** Google sign-in: OAuth client ids (comma-separated). Unset: Google sign-in answers "not configured". */
  @Env('GOOGLE_CLIENT_IDS')
  @IsOptional()
  @IsString()
  googleClientIds?: string;

  /**
   * Other OpenID Connect sign-in providers (Apple, Microsoft, any other): a JSON array of
   * {name, label?, issuer, client_id, client_secret? or apple_client_secret?, scope?, verified_email_claim?,
   * multi_tenant?}; see oidc/oidc-settings.ts. Unset: none.
   */
  @Env('OIDC_PROVIDERS', { sensitive: true })
  @IsOptional()
  @IsString()
  oidcProviders?: string;

  @Env('GOOGLE_JWKS_URL')
  @HttpUrl()
  googleJwksUrl = 'https://www.googleapis.com/oauth2/v3/certs';

  @Env('GOOGLE_USERINFO_URL')
  @HttpUrl()
  googleUserinfoUrl = 'https://openidconnect.googleapis.com/v1/userinfo';

  /** Largest profile picture accepted before resizing, in bytes. */
  @Env('PROFILE_PICTURE_MAX_BYTES')
  @WholeNumber(1024)
  profilePictureMaxBytes = 10 * 1024 * 1024;

  @Env('GOOGLE_TOKENINFO_URL')
  @HttpUrl()
  googleTokeninfoUrl = 'https://oauth2.googleapis.com/tokeninfo';

  /** The NPPES NPI Registry API (version 2.1); tests point it at a local stand-in. */
  @Env('NPI_REGISTRY_URL')
  @HttpUrl()
  npiRegistryUrl = 'https://npiregistry.cms.hhs.gov/api/?version=2.1';

  /** How long a registry lookup may take before "We cannot verify licenses right now". */
  @Env('NPI_REGISTRY_TIMEOUT_MS')
  @WholeNumber(100, 60_000)
  npiRegistryTimeoutMs = 5000;

  /** Licence verification attempts per account per hour (every attempt counts, successful or not). */
  @Env('LICENSE_ATTEMPTS_PER_HOUR')
  @WholeNumber(1)
  licenseAttemptsPerHour = 10;

  /** Family: how many days an e-mailed invitation to a record stays valid. */
  @Env('FAMILY_INVITE_DAYS')
  @WholeNumber(1, 90)
  familyInviteDays = 7;

  /** Family: how many months a caregiver's access to another adult's record lasts before it must be renewed. */
  @Env('FAMILY_PROXY_MONTHS')
  @WholeNumber(1, 120)
  familyProxyMonths = 18;

  /** Family: how many days before an adult-to-adult grant ends the record's owner is reminded by e-mail. */
  @Env('FAMILY_REMINDER_DAYS')
  @WholeNumber(1, 365)
  familyReminderDays = 30;

  /**
   * Family: the plans (internal ids, comma-separated) whose holders may add family members. The
   * product's Family plan is 'pro'; a self-hosted server may open it to every plan.
   */
  @Env('FAMILY_PLANS')
  @IsString()
  @Matches(/^(free|basic|standard|plus|pro)(,(free|basic|standard|plus|pro))*$/, { message: 'must be plan ids separated by commas (free, basic, standard, plus, pro)' })
  familyPlans = 'pro';

  /** Family: a dependant may get their own sign-in (claim their record) from 13; off, from 18. */
  @Env('FAMILY_TEEN_SIGN_IN')
  @IsBoolean({ message: 'must be true or false' })
  familyTeenSignIn = true;

  /** Family: a teen who claims their record is asked whether their guardian(s) and caregivers keep access. */
  @Env('FAMILY_TEEN_ASSENT_REQUIRED')
  @IsBoolean({ message: 'must be true or false' })
  familyTeenAssentRequired = true;

  /** Family: how many days after a dependant's 18th birthday their former guardian may still send them the link to claim their record. */
  @Env('FAMILY_CLAIM_GRACE_DAYS')
  @WholeNumber(0, 3650)
  familyClaimGraceDays = 90;
}
