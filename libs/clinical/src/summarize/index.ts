export { LocalEngine, readDocument, detectHeading } from './local-engine';
export { mergeFacts, nameKey } from './merge';
export { buildSummary, factLine, compareFacts } from './render';
export { normaliseKey, quoteOf, headerDate, findDates } from './text';
export { parseMedication, parseAllergy, parseCondition, drugKey, conceptOf } from './parsers';
export * from './openai';
