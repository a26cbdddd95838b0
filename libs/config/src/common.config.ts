import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { Env } from './env.decorator';

export const RUN_MODES = ['embedded', 'service'] as const;
export type RunMode = (typeof RUN_MODES)[number];

const POSTGRES_URL = /^postgres(ql)?:\/\/.+/;
const NATS_URL = /^(nats|tls):\/\/[^\s]+$/;

/**
 * Settings every app reads. Each app extends this with its own class.
 * Leaving DATABASE_URL / NATS_URL unset selects the embedded defaults (PGlite, in-process messaging).
 */
export class CommonConfig {
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

  /** postgres://user:pass@host:5432/db. Unset: embedded PGlite in DATA_DIR. */
  @Env('DATABASE_URL', { sensitive: true })
  @IsOptional()
  @Matches(POSTGRES_URL, { message: 'must be a postgres:// URL' })
  databaseUrl?: string;

  /** Connection pool size per service. */
  @Env('DATABASE_POOL_SIZE')
  @IsInt({ message: 'must be a whole number' })
  @Min(1, { message: 'must be at least 1' })
  databasePoolSize = 5;

  /** nats://host:4222 (comma-separated for a cluster). Unset: in-process messaging. */
  @Env('NATS_URL', { sensitive: true })
  @IsOptional()
  @Matches(NATS_URL, { message: 'must be a nats:// URL' })
  natsUrl?: string;

  /** JetStream stream replicas: 1 for one NATS server, 3 in production. */
  @Env('NATS_STREAM_REPLICAS')
  @IsInt({ message: 'must be a whole number' })
  @Min(1, { message: 'must be at least 1' })
  @Max(5, { message: 'must be at most 5' })
  natsStreamReplicas = 1;

  /** Time-out for every request/reply call, in milliseconds. */
  @Env('RPC_TIMEOUT_MS')
  @IsInt({ message: 'must be a whole number' })
  @Min(100, { message: 'must be at least 100' })
  rpcTimeoutMs = 5000;

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
