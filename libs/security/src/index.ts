export * from './access-token';
export * from './secret-file';
export * from './signing-keys';
export * from './clamd';
export * from './envelope';
