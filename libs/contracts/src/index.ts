export * from './audit';
export * from './billing';
export * from './caller';
export * from './documents';
export * from './errors';
export * from './identity';
export * from './notifications';
export * from './subjects';
