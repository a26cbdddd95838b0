export * from './access-token';
export * from './signing-keys';
