export * from './common.config';
export * from './env.decorator';
export * from './load-config';
export * from './rules';
export * from './storage.config';
