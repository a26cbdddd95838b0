export * from './model';
export * from './summarize';
