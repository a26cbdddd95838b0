export * from './common.config';
export * from './concerns';
export * from './env.decorator';
export * from './load-config';
export * from './rules';
export * from './storage.config';
export * from './public-url';
