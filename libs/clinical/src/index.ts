export * from './model';
export * from './extract';
export * from './summarize';
