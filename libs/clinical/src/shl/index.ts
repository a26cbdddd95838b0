export * from './shl';
