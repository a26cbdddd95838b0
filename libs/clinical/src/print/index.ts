export * from './summary-pdf';
