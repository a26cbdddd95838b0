export * from './model';
export * from './extract';
export * from './summarize';
export * from './fhir';
export * from './shl';
export * from './print';
export * from './trends';
