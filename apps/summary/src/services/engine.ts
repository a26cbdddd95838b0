import { createSummaryEngine, OcrScheduler, summaryEngineSettingsFromEnv, type SummaryEngine } from '@medfolio/clinical';
import type { SummaryConfig } from '../config';

/** The engine the builder uses (injection token). */
export const SUMMARY_ENGINE = Symbol('SUMMARY_ENGINE');

/** The OCR workers every extraction shares (injection token). */
export const OCR_SCHEDULER = Symbol('OCR_SCHEDULER');

/**
 * 'local' by default; 'openai' when OPENAI_API_KEY is set (or SUMMARY_ENGINE says so). The settings
 * (SUMMARY_ENGINE, OPENAI_*, SUMMARY_MODEL...) are read and checked by @medfolio/clinical, which
 * names a bad one at start-up.
 */
export function createEngine(env: Record<string, string | undefined> = process.env): SummaryEngine {
  return createSummaryEngine(summaryEngineSettingsFromEnv(env));
}

export function createOcrScheduler(config: SummaryConfig): OcrScheduler {
  return new OcrScheduler({ concurrency: config.ocrConcurrency });
}
