import { IsOptional, IsString, Matches } from 'class-validator';
import { BaseConfig, Env, HttpUrl, WholeNumber, WithInternalHttp, WithJwt, WithMessaging, WithStorage } from '@medfolio/config';

/** The gateway's settings: no database (it has none); messaging, storage (it serves downloads), tokens, internal HTTP. */
export class GatewayConfig extends WithInternalHttp(WithJwt(WithStorage(WithMessaging(BaseConfig)))) {
  /** Where the identity service publishes its public keys. Unset in embedded mode: the local key ring. */
  @Env('JWT_JWKS_URL')
  @IsOptional()
  @HttpUrl()
  jwksUrl?: string;

  /** Comma-separated origins allowed by CORS; empty = same origin only. */
  @Env('CORS_ORIGINS')
  @IsString()
  corsOrigins = '';

  /** Shared rate-limit counters across gateway replicas; unset = in memory. */
  @Env('REDIS_URL', { sensitive: true })
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// URL' })
  redisUrl?: string;

  /** Requests per minute per client address. */
  @Env('RATE_LIMIT_PER_MINUTE')
  @WholeNumber(1)
  rateLimitPerMinute = 300;

  /** Requests per minute per provider account on the /api/providers/patients/... routes (their systems' API). */
  @Env('PROVIDER_RATE_LIMIT_PER_MINUTE')
  @WholeNumber(1)
  providerRateLimitPerMinute = 120;

  /** Largest JSON body accepted, in bytes (uploads stream separately). */
  @Env('BODY_LIMIT_BYTES')
  @WholeNumber(1024)
  bodyLimitBytes = 1_048_576;

  /** The services behind the gateway, whose readiness GET /api/health reports (comma-separated). */
  @Env('GATEWAY_SERVICES')
  @Matches(/^[a-z]+(,[a-z]+)*$/, { message: 'must be a comma-separated list of service names' })
  services = 'audit,identity,documents,summary,notifications,wallet,billing,connections';

  /** identity's internal HTTP endpoint, where picture uploads are streamed (set by the launcher in embedded mode). */
  @Env('IDENTITY_INTERNAL_URL')
  @HttpUrl()
  identityInternalUrl = 'http://127.0.0.1:3001';

  /** documents' internal HTTP endpoint, where document uploads are streamed (set by the launcher in embedded mode). */
  @Env('DOCUMENTS_INTERNAL_URL')
  @HttpUrl()
  documentsInternalUrl = 'http://127.0.0.1:3002';

  /** wallet's internal HTTP endpoint, where signed passes are downloaded (set by the launcher in embedded mode). */
  @Env('WALLET_INTERNAL_URL')
  @HttpUrl()
  walletInternalUrl = 'http://127.0.0.1:3005';

  /** Trust X-Forwarded-For from this many proxies (the ingress) when deciding the client address. */
  @Env('TRUST_PROXY_HOPS')
  @WholeNumber(0)
  trustProxyHops = 0;

  /** Google sign-in in the web app: the OAuth client id of type "Web application". Unset: no Google button. */
  @Env('GOOGLE_WEB_CLIENT_ID')
  @IsOptional()
  @IsString()
  googleWebClientId?: string;

  /** Where the browser is sent to sign in with Google (a local stand-in in tests). */
  @Env('GOOGLE_AUTHORIZATION_URL')
  @HttpUrl()
  googleAuthorizationUrl = 'https://accounts.google.com/o/oauth2/v2/auth';

  /**
   * Stripe.js's publishable key (pk_test_…), handed to the web app by GET /api/client-config/. Unset:
   * the web app loads no Stripe.js and the Content-Security-Policy names no Stripe origin.
   */
  @Env('STRIPE_PUBLISHABLE_KEY')
  @IsOptional()
  @Matches(/^pk_(test|live)_[A-Za-z0-9_]+$/, { message: 'must be a Stripe publishable key (pk_test_…)' })
  stripePublishableKey?: string;

  /** The built web app (index.html and assets). Empty: next to the compiled gateway (dist/apps/web/dist), if it is there. */
  @Env('WEB_ROOT')
  @IsString()
  webRoot = '';
}
