export * from './observations';
export * from './units';
export * from './series';
