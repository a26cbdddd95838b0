export * from './model';
export * from './extract';
