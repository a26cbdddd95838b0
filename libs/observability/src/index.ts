export * from './health';
export * from './logging';
export * from './metrics';
