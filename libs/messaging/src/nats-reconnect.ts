/**
 * How every NATS connection of the product reconnects: for ever (the client's default gives up
 * after 10 attempts, about 20 s, and a service would then never listen again), retrying every
 * second, so the product is back within a few seconds of NATS returning.
 */
export const NATS_RECONNECT = { maxReconnectAttempts: -1, reconnectTimeWait: 1000, reconnectJitter: 100 } as const;
