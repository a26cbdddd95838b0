import { IsOptional, IsString } from 'class-validator';
import { CommonConfig, Env, HttpUrl, KeyList, WholeNumber, WithInternalHttp, WithPublicUrl } from '@medfolio/config';

/**
 * The summary service's settings. It has no HTTP routes of its own: it reads documents over theirs,
 * with the internal token (INTERNAL_API_TOKEN). The engine's settings (SUMMARY_ENGINE, OPENAI_API_KEY,
 * OPENAI_BASE_URL, SUMMARY_MODEL...) are read by @medfolio/clinical (services/engine.ts).
 */
export class SummaryConfig extends WithPublicUrl(WithInternalHttp(CommonConfig)) {
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

  /**
   * The key of share links (32 bytes, base64): it seals share ids, owners' addresses and SHL keys at
   * rest and signs passcode links' view tokens. Held by the summary service alone. Required in
   * service mode (no longer derived from INTERNAL_API_TOKEN, which every service holds); in embedded
   * mode, unset, generated once into DATA_DIR/keys/share-links.key. To rotate, give
   * "new:base64,old:base64": the first seals and signs, all open and check (the ids are stored with
   * each sealed value); on its next start the service seals the stored values again with the first.
   */
  @Env('SHARE_LINK_KEY', { sensitive: true, serviceSecret: { how: '32 random bytes in base64, held by the summary service only (openssl rand -base64 32)' } })
  @IsOptional()
  @KeyList('must be 32 random bytes in base64, or to rotate a list "new:base64,old:base64" of them (current first)')
  shareLinkKey?: string;

  /** How long a passcode link's view token lasts, in seconds. */
  @Env('SHARE_VIEW_TOKEN_SECONDS')
  @WholeNumber(30, 86_400)
  shareViewTokenSeconds = 900;
}
