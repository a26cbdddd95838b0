import { BaseConfig, WithDatabase, WithHousekeeping, WithMessaging } from './concerns';

/**
 * Settings every service reads: the base ones, its database, messaging and housekeeping (concerns.ts).
 * Leaving DATABASE_URL / NATS_URL unset selects the embedded defaults (PGlite, in-process messaging).
 */
export class CommonConfig extends WithHousekeeping(WithMessaging(WithDatabase(BaseConfig))) {}
