import { IsBoolean, IsOptional, IsString, Matches } from 'class-validator';
import { Env, InternalHttpConfig, WholeNumber, WithPublicUrl } from '@medfolio/config';

const QUOTA = /^(\d{1,9}|unlimited)$/;
const QUOTA_MESSAGE = { message: 'must be a whole number of documents or "unlimited"' };

export class DocumentsConfig extends WithPublicUrl(InternalHttpConfig) {
  /** Largest file accepted, in bytes (100 MB). */
  @Env('DOCUMENT_MAX_FILE_BYTES')
  @WholeNumber(1024)
  maxFileBytes = 100 * 1024 * 1024;

  /** Most files in one upload request. */
  @Env('DOCUMENT_MAX_FILES_PER_UPLOAD')
  @WholeNumber(1, 1000)
  maxFilesPerUpload = 20;

  /** Zip files (and the zip inside a .docx): most entries in the central directory. */
  @Env('ZIP_MAX_ENTRIES')
  @WholeNumber(1, 65535)
  zipMaxEntries = 1000;

  /** Zip files: most bytes all entries may declare uncompressed, together (1 GiB). */
  @Env('ZIP_MAX_UNCOMPRESSED_BYTES')
  @WholeNumber(1024)
  zipMaxUncompressedBytes = 1024 * 1024 * 1024;

  /** Zip files: the largest uncompressed/compressed ratio of one entry (zip bombs are in the thousands). */
  @Env('ZIP_MAX_COMPRESSION_RATIO')
  @WholeNumber(2)
  zipMaxCompressionRatio = 100;

  /** Documents per plan (spec section 9): a whole number, or "unlimited". */
  @Env('DOCUMENT_QUOTA_FREE')
  @Matches(QUOTA, QUOTA_MESSAGE)
  quotaFree = '2';

  @Env('DOCUMENT_QUOTA_BASIC')
  @Matches(QUOTA, QUOTA_MESSAGE)
  quotaBasic = '5';

  @Env('DOCUMENT_QUOTA_STANDARD')
  @Matches(QUOTA, QUOTA_MESSAGE)
  quotaStandard = '12';

  @Env('DOCUMENT_QUOTA_PLUS')
  @Matches(QUOTA, QUOTA_MESSAGE)
  quotaPlus = '25';

  /** The 'pro' plan, shown to users as Family. */
  @Env('DOCUMENT_QUOTA_FAMILY')
  @Matches(QUOTA, QUOTA_MESSAGE)
  quotaFamily = 'unlimited';

  /** How long a download link works, in seconds (the spec's 5 minutes). */
  @Env('DOWNLOAD_LINK_SECONDS')
  @WholeNumber(10, 3600)
  downloadLinkSeconds = 300;

  /** How long a thumbnail URL in the list works, in seconds. */
  @Env('THUMBNAIL_URL_SECONDS')
  @WholeNumber(10, 86_400)
  thumbnailUrlSeconds = 900;

  /** Images larger than this get no thumbnail (decoding holds the image in memory), in bytes. */
  @Env('THUMBNAIL_SOURCE_MAX_BYTES')
  @WholeNumber(1024)
  thumbnailSourceMaxBytes = 25 * 1024 * 1024;

  /**
   * ClamAV's daemon, to scan every upload before it is kept: tcp://host:port. Its StreamMaxLength,
   * MaxFileSize and MaxScanSize must be at least DOCUMENT_MAX_FILE_BYTES (clamd passes a file over
   * MaxFileSize unscanned). Unset, with CLAMD_SOCKET unset too: no antivirus scan.
   */
  @Env('CLAMD_URL')
  @IsOptional()
  @Matches(/^tcp:\/\/[^/:]+:\d{1,5}$/, { message: 'must be tcp://host:port' })
  clamdUrl?: string;

  /** clamd's unix socket (e.g. /run/clamav/clamd.ctl); used instead of CLAMD_URL when set. */
  @Env('CLAMD_SOCKET')
  @IsOptional()
  @IsString()
  clamdSocket?: string;

  /**
   * When clamd cannot be reached (or fails mid-scan): false (the default) refuses the upload with a
   * 503 and keeps nothing; true keeps it unscanned, with a warning in the log.
   */
  @Env('CLAMD_FAIL_OPEN')
  @IsBoolean({ message: 'must be true or false' })
  clamdFailOpen = false;

  /** The longest wait for clamd (connecting, taking the stream, its verdict), in milliseconds. */
  @Env('CLAMD_TIMEOUT_MS')
  @WholeNumber(100, 600_000)
  clamdTimeoutMs = 60_000;

  /**
   * An upload whose blobs were stored but never committed (the process died in between) is purged
   * after this many seconds; it must be longer than the slowest upload takes.
   */
  @Env('UNFINISHED_UPLOAD_PURGE_SECONDS')
  @WholeNumber(60)
  unfinishedUploadPurgeSeconds = 6 * 3600;
}
