import { BaseConfig, WithDatabase, WithMessaging } from './concerns';

/**
 * Settings every service reads: the base ones, its database and messaging (concerns.ts).
 * Leaving DATABASE_URL / NATS_URL unset selects the embedded defaults (PGlite, in-process messaging).
 */
export class CommonConfig extends WithMessaging(WithDatabase(BaseConfig)) {}
