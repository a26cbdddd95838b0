import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { Env } from './env.decorator';
import { HttpUrl, WholeNumber } from './rules';

/*
 * Configuration by concern. `BaseConfig` holds what every process reads; each concern (database,
 * NATS, storage, JWT, internal HTTP, public URL) is a mixin that adds its settings, each defined
 * here once. An app composes the concerns it uses, so it carries no setting it does not read:
 *
 *   class GatewayConfig extends WithInternalHttp(WithJwt(WithStorage(WithMessaging(BaseConfig)))) { ... }
 *
 * (no DATABASE_URL in the gateway). `CommonConfig` (common.config.ts) is what every service uses.
 */

export const RUN_MODES = ['embedded', 'service'] as const;
export type RunMode = (typeof RUN_MODES)[number];

const POSTGRES_URL = /^postgres(ql)?:\/\/.+/;
const NATS_URL = /^(nats|tls):\/\/[^\s]+$/;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ConfigClass<T = object> = new (...args: any[]) => T;

/** Settings every process reads: mode, HTTP port, logs, GC, data directory. */
export class BaseConfig {
  /** 'embedded': everything in one process (npm start). 'service': one service per process (Kubernetes). */
  @Env('MEDFOLIO_MODE')
  @IsIn(RUN_MODES, { message: 'must be one of: embedded, service' })
  mode: RunMode = 'embedded';

  @Env('PORT')
  @IsInt({ message: 'must be a whole number' })
  @Min(0, { message: 'must be a port number (0 to 65535)' })
  @Max(65535, { message: 'must be a port number (0 to 65535)' })
  port = 3000;

  @Env('HOST')
  @IsString()
  host = '0.0.0.0';

  @Env('LOG_LEVEL')
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    message: 'must be one of: fatal, error, warn, info, debug, trace, silent',
  })
  logLevel = 'info';

  /**
   * When V8 starts marking the old generation, as "<soft>,<hard>": percentages of the heap's current
   * allocation limit (soft: marking starts in a background task; hard: at once), or "v8" for V8's
   * own rule. The default keeps a busy process from marking its whole heap over and over while a
   * large upload streams through (docs/architecture.md, "Garbage collection").
   */
  @Env('GC_MARKING_TRIGGERS')
  @Matches(/^(v8|([1-9]\d?),([1-9]\d?|100))$/, {
    message: 'must be "v8" or two percentages "soft,hard" (1 to 100) such as 80,95',
  })
  gcMarkingTriggers = '80,95';

  /** Where embedded mode keeps its data (PGlite, files, event logs). */
  @Env('DATA_DIR')
  @IsString()
  dataDir = '.data';
}

export interface DatabaseSettings {
  databaseUrl?: string;
  databasePoolSize: number;
}

/** DATABASE_URL (unset: embedded PGlite in DATA_DIR) and the pool. Services only: the gateway has no database. */
export function WithDatabase<B extends ConfigClass>(Base: B) {
  class Database extends Base implements DatabaseSettings {
    /** postgres://user:pass@host:5432/db. Unset: embedded PGlite in DATA_DIR. */
    @Env('DATABASE_URL', { sensitive: true })
    @IsOptional()
    @Matches(POSTGRES_URL, { message: 'must be a postgres:// URL' })
    databaseUrl?: string;

    /** Connection pool size per service. */
    @Env('DATABASE_POOL_SIZE')
    @WholeNumber(1)
    databasePoolSize = 5;
  }
  return Database;
}

export interface MessagingSettings {
  natsUrl?: string;
  natsStreamReplicas: number;
  rpcTimeoutMs: number;
}

/** NATS_URL (unset: in-process messaging), stream replicas, the request/reply time-out. */
export function WithMessaging<B extends ConfigClass>(Base: B) {
  class Messaging extends Base implements MessagingSettings {
    /** nats://host:4222 (comma-separated for a cluster). Unset: in-process messaging. */
    @Env('NATS_URL', { sensitive: true })
    @IsOptional()
    @Matches(NATS_URL, { message: 'must be a nats:// URL' })
    natsUrl?: string;

    /** JetStream stream replicas: 1 for one NATS server, 3 in production. */
    @Env('NATS_STREAM_REPLICAS')
    @WholeNumber(1, 5)
    natsStreamReplicas = 1;

    /** Time-out for every request/reply call, in milliseconds. */
    @Env('RPC_TIMEOUT_MS')
    @WholeNumber(100)
    rpcTimeoutMs = 5000;
  }
  return Messaging;
}

export interface StorageSettings {
  s3Endpoint?: string;
  s3Region: string;
  s3Bucket?: string;
  s3AccessKeyId?: string;
  s3SecretAccessKey?: string;
  s3ForcePathStyle: boolean;
  s3Sse: string;
  s3SignPayload: boolean;
  s3Downloads: string;
  storageDir?: string;
  storageEncryptionKeys?: string;
  storageUrlSigningKey?: string;
}

/**
 * Settings of apps that keep or serve files. S3 when S3_BUCKET is set; otherwise an encrypted
 * directory (STORAGE_DIR, default DATA_DIR/files) whose keys are generated once into DATA_DIR
 * when STORAGE_ENCRYPTION_KEYS / STORAGE_URL_SIGNING_KEY are unset (embedded mode).
 */
export function WithStorage<B extends ConfigClass>(Base: B) {
  class Storage extends Base implements StorageSettings {
    @Env('S3_ENDPOINT')
    @IsOptional()
    @HttpUrl()
    s3Endpoint?: string;

    @Env('S3_REGION')
    @IsString()
    s3Region = 'us-east-1';

    @Env('S3_BUCKET')
    @IsOptional()
    @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'must be a valid bucket name' })
    s3Bucket?: string;

    @Env('S3_ACCESS_KEY_ID', { sensitive: true })
    @IsOptional()
    @IsString()
    s3AccessKeyId?: string;

    @Env('S3_SECRET_ACCESS_KEY', { sensitive: true })
    @IsOptional()
    @IsString()
    s3SecretAccessKey?: string;

    @Env('S3_FORCE_PATH_STYLE')
    @IsBoolean({ message: 'must be true or false' })
    s3ForcePathStyle = true;

    /** Server-side encryption: AES256 (default), aws:kms, or none for servers that reject the header. */
    @Env('S3_SSE')
    @IsIn(['AES256', 'aws:kms', 'none'], { message: 'must be one of: AES256, aws:kms, none' })
    s3Sse = 'AES256';

    /**
     * Sign upload bodies with SHA-256 as well as their CRC32 checksum. Default false: parts are sent
     * as SigV4 "UNSIGNED-PAYLOAD" with the checksum the server verifies, which spares hashing every
     * byte twice; true for a server that refuses unsigned payloads.
     */
    @Env('S3_SIGN_PAYLOAD')
    @IsBoolean({ message: 'must be true or false' })
    s3SignPayload = false;

    /**
     * How an S3 store's documents are downloaded: "gateway" (default) as links the gateway signs and
     * serves from S3, same origin and with nosniff (needs STORAGE_URL_SIGNING_KEY, the same in every
     * service, in service mode); "presigned" as presigned S3 URLs (the browser then fetches from the S3
     * origin, which the gateway adds to its CSP; nosniff is not sent).
     */
    @Env('S3_DOWNLOADS')
    @IsIn(['gateway', 'presigned'], { message: 'must be one of: gateway, presigned' })
    s3Downloads = 'gateway';

    @Env('STORAGE_DIR')
    @IsOptional()
    @IsString()
    storageDir?: string;

    /** "keyId:base64,keyId2:base64": 32-byte AES keys, the first encrypts, all decrypt. */
    @Env('STORAGE_ENCRYPTION_KEYS', {
      sensitive: true,
      serviceSecret: {
        how: '"k1:<32 random bytes in base64>" (openssl rand -base64 32), the same in every service that shares the file store',
        // The encrypted directory's keys; with S3 the bucket's server-side encryption applies instead.
        when: (config) => !(config as StorageSettings).s3Bucket,
      },
    })
    @IsOptional()
    @IsString()
    storageEncryptionKeys?: string;

    @Env('STORAGE_URL_SIGNING_KEY', {
      sensitive: true,
      serviceSecret: {
        how: 'the same 32+ random characters in every service that makes or serves download links (e.g. openssl rand -base64 32)',
        // Needed wherever download links are signed: the filesystem store, or S3 with gateway downloads.
        when: (config) => !(config as StorageSettings).s3Bucket || (config as StorageSettings).s3Downloads === 'gateway',
      },
    })
    @IsOptional()
    @Matches(/^.{32,}$/, { message: 'must be at least 32 characters' })
    storageUrlSigningKey?: string;
  }
  return Storage;
}

export interface JwtSettings {
  jwtIssuer: string;
  jwtAudience: string;
}

/** The access tokens' issuer and audience (identity signs, the gateway checks). */
export function WithJwt<B extends ConfigClass>(Base: B) {
  class Jwt extends Base implements JwtSettings {
    @Env('JWT_ISSUER')
    @IsString()
    jwtIssuer = 'medfolio-identity';

    @Env('JWT_AUDIENCE')
    @IsString()
    jwtAudience = 'medfolio-api';
  }
  return Jwt;
}

export interface InternalHttpSettings {
  internalApiToken?: string;
}

/** The token on internal HTTP calls between the gateway and services (uploads, never over NATS). */
export function WithInternalHttp<B extends ConfigClass>(Base: B) {
  class InternalHttp extends Base implements InternalHttpSettings {
    /** The shared secret on internal HTTP calls between the gateway and services. */
    @Env('INTERNAL_API_TOKEN', {
      sensitive: true,
      serviceSecret: { how: 'the same 32+ random characters in the gateway and every service with internal HTTP endpoints (e.g. openssl rand -base64 32)' },
    })
    @IsOptional()
    @Matches(/^.{32,}$/, { message: 'must be at least 32 characters' })
    internalApiToken?: string;
  }
  return InternalHttp;
}

export interface PublicUrlSettings {
  publicBaseUrl: string;
}

/**
 * The web app's address, the base of every link the product writes (e-mails, referral and share
 * links, SHL payloads and manifests, the wallet pass's web service). Every service that writes links
 * composes this, so all read the same variable. Unset: `npm start` puts the address it listens on
 * here (publicBaseUrlOf in public-url.ts); a service run on its own keeps the default below.
 */
export function WithPublicUrl<B extends ConfigClass>(Base: B) {
  class PublicUrl extends Base implements PublicUrlSettings {
    /** Where links point (the web app, as users' browsers reach it). No quotes or angle brackets: it goes into HTML. */
    @Env('PUBLIC_BASE_URL')
    @Matches(/^https?:\/\/[^\s"'<>]+$/, { message: 'must be an http(s) URL' })
    publicBaseUrl = 'http://localhost:3000';
  }
  return PublicUrl;
}

export interface HousekeepingSettings {
  housekeepingIntervalMinutes: number;
  outboxRetentionDays: number;
  processedMessagesRetentionDays: number;
  eventLogRetentionDays: number;
}

/**
 * Housekeeping: how often each service prunes its bookkeeping, and how long each kind
 * is kept (docs/notes.md, "Housekeeping"). Every service reads these through CommonConfig.
 */
export function WithHousekeeping<B extends ConfigClass>(Base: B) {
  class Housekeeping extends Base implements HousekeepingSettings {
    /** Minutes between housekeeping passes (the first a minute after start); 0 turns it off. */
    @Env('HOUSEKEEPING_INTERVAL_MINUTES')
    @IsInt({ message: 'must be a whole number' })
    @Min(0, { message: 'must be 0 (off) or more' })
    @Max(7 * 24 * 60, { message: 'must be at most 10080 (a week)' })
    housekeepingIntervalMinutes = 60;

    /** Days a published outbox row is kept (unpublished rows are never pruned). */
    @Env('OUTBOX_RETENTION_DAYS')
    @WholeNumber(1)
    outboxRetentionDays = 7;

    /**
     * Days a processed-message id is kept, so a redelivered event still has exactly one effect.
     * At least 1 (far above the streams' 7-minute redelivery window while a consumer runs): the
     * real bound is how long a consumer or an outbox relay may stay down and come back.
     */
    @Env('PROCESSED_MESSAGES_RETENTION_DAYS')
    @WholeNumber(1)
    processedMessagesRetentionDays = 30;

    /** Days a message stays in the one-process event logs (DATA_DIR/events) once every consumer is done with it. */
    @Env('EVENT_LOG_RETENTION_DAYS')
    @WholeNumber(1)
    eventLogRetentionDays = 7;
  }
  return Housekeeping;
}
