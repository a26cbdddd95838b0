export * from './audit';
export * from './caller';
export * from './errors';
export * from './identity';
export * from './notifications';
export * from './subjects';
