export { extractDocument } from './extract';
export { OcrScheduler, shippedLangPath, type OcrOutcome, type OcrSchedulerOptions } from './ocr';
export { sniffStructuredRecord, STRUCTURED_SNIFF_BYTES, type StructuredKind } from './structured';
export {
  DEFAULT_LIMITS,
  type ExtractLimits,
  type ExtractLogger,
  type ExtractOptions,
  type ExtractSource,
} from './types';
