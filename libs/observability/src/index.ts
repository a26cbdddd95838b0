export * from './health';
export * from './http-metrics';
export * from './logging';
export * from './metrics';
export * from './rpc-metrics.interceptor';
