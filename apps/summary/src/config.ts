import { IsOptional, IsString } from 'class-validator';
import { CommonConfig, Env, HttpUrl, WholeNumber, WithInternalHttp } from '@medfolio/config';

/**
 * The summary service's settings. It has no HTTP routes of its own: it reads documents over theirs,
 * with the internal token (INTERNAL_API_TOKEN). The engine's settings (SUMMARY_ENGINE, OPENAI_API_KEY,
 * OPENAI_BASE_URL, SUMMARY_MODEL...) are read by @medfolio/clinical (services/engine.ts).
 */
export class SummaryConfig extends WithInternalHttp(CommonConfig) {
  /** documents' internal HTTP endpoint, where document bytes are read (set by the launcher in embedded mode). */
  @Env('DOCUMENTS_INTERNAL_URL')
  @HttpUrl()
  documentsInternalUrl = 'http://127.0.0.1:3002';

  /** Documents read at the same time (each spools one file to disk and parses it). */
  @Env('SUMMARY_EXTRACT_CONCURRENCY')
  @WholeNumber(1, 16)
  extractConcurrency = 2;

  /** OCR workers (threads) shared by all extractions. */
  @Env('SUMMARY_OCR_CONCURRENCY')
  @WholeNumber(1, 8)
  ocrConcurrency = 1;

  /**
   * A document claimed for reading longer ago than this (the process died mid-way) is taken again.
   * A live worker renews its claim every third of it.
   */
  @Env('SUMMARY_EXTRACT_LEASE_SECONDS')
  @WholeNumber(10, 3600)
  extractLeaseSeconds = 90;

  /** The summary is rebuilt this long after the patient's last document change (debounce), in ms. */
  @Env('SUMMARY_REBUILD_DELAY_MS')
  @WholeNumber(0, 60_000)
  rebuildDelayMs = 1500;

  /** Where documents are spooled while they are read. Default: the system's temporary directory. */
  @Env('SUMMARY_SPOOL_DIR')
  @IsOptional()
  @IsString()
  spoolDir?: string;
}
