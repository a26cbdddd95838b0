import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { Env, InternalHttpConfig } from '@medfolio/config';

export class IdentityConfig extends InternalHttpConfig {
  /** Private signing keys as a JSON array of JWKs (ES256, each with a kid; the first signs). Unset: the key ring in DATA_DIR. */
  @Env('JWT_SIGNING_KEYS', { sensitive: true })
  @IsOptional()
  @IsString()
  signingKeys?: string;

  /** HMAC key for verification codes (32+ characters). Unset: generated once into DATA_DIR. */
  @Env('IDENTITY_SECRET', { sensitive: true })
  @IsOptional()
  @IsString()
  @Matches(/^.{32,}$/, { message: 'must be at least 32 characters' })
  secret?: string;

  @Env('JWT_ISSUER')
  @IsString()
  jwtIssuer = 'medfolio-identity';

  @Env('JWT_AUDIENCE')
  @IsString()
  jwtAudience = 'medfolio-api';

  @Env('ACCESS_TOKEN_TTL_SECONDS')
  @IsInt({ message: 'must be a whole number' })
  @Min(60, { message: 'must be at least 60' })
  @Max(3600, { message: 'must be at most 3600' })
  accessTokenTtlSeconds = 900;

  @Env('REFRESH_TOKEN_TTL_DAYS')
  @IsInt({ message: 'must be a whole number' })
  @Min(1, { message: 'must be at least 1' })
  refreshTokenTtlDays = 30;

  /**
   * Presenting a refresh token that was rotated less than this many seconds ago answers 401 but
   * does not revoke the sign-in: a browser's parallel requests refreshing at once is not theft.
   */
  @Env('REFRESH_REUSE_GRACE_SECONDS')
  @IsInt({ message: 'must be a whole number' })
  @Min(0, { message: 'must be 0 or more' })
  refreshReuseGraceSeconds = 10;

  /** Where links in e-mails point (the web app). */
  @Env('PUBLIC_BASE_URL')
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  publicBaseUrl = 'http://localhost:3000';

  /** Failed attempts per account per hour (login, code, reset) before 429. */
  @Env('AUTH_FAILURES_PER_ACCOUNT_PER_HOUR')
  @IsInt({ message: 'must be a whole number' })
  @Min(1, { message: 'must be at least 1' })
  failuresPerAccountPerHour = 100;

  /** Failed attempts per client address per hour before 429. */
  @Env('AUTH_FAILURES_PER_IP_PER_HOUR')
  @IsInt({ message: 'must be a whole number' })
  @Min(1, { message: 'must be at least 1' })
  failuresPerIpPerHour = 300;

  /** Google sign-in: OAuth client ids (comma-separated). Unset: Google sign-in answers "not configured". */
  @Env('GOOGLE_CLIENT_IDS')
  @IsOptional()
  @IsString()
  googleClientIds?: string;

  @Env('GOOGLE_JWKS_URL')
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  googleJwksUrl = 'https://www.googleapis.com/oauth2/v3/certs';

  @Env('GOOGLE_USERINFO_URL')
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  googleUserinfoUrl = 'https://openidconnect.googleapis.com/v1/userinfo';

  /** Largest profile picture accepted before resizing, in bytes. */
  @Env('PROFILE_PICTURE_MAX_BYTES')
  @IsInt({ message: 'must be a whole number' })
  @Min(1024, { message: 'must be at least 1024' })
  profilePictureMaxBytes = 10 * 1024 * 1024;


  @Env('GOOGLE_TOKENINFO_URL')
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  googleTokeninfoUrl = 'https://oauth2.googleapis.com/tokeninfo';
}
