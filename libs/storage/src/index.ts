export { assertSafeBlobKey } from './blob-key';
export { BLOB_STORAGE, DOWNLOAD_LINK_SIGNING_KEY, STREAM_BUFFER_BYTES } from './blob-storage';
export type { BlobHead, BlobStorage, DownloadUrlOptions, PutBlobOptions, PutBlobResult } from './blob-storage';
export { assertValidEncryptionKeys, parseEncryptionKeys } from './config';
export type { BlobStorageConfig, FilesystemStorageConfig, S3StorageConfig, StorageEncryptionKey } from './config';
export { createBlobStorage } from './create-blob-storage';
export { BlobIntegrityError, BlobNotFoundError, BlobStorageError, InvalidBlobKeyError } from './errors';
export { FilesystemBlobStorage } from './fs/filesystem-blob-storage';
export { DEFAULT_DOWNLOAD_BASE_PATH, signDownloadUrl, verifySignedUrl } from './signed-url';
export type { SignDownloadUrlInput, SignedUrlVerification, VerifySignedUrlOptions } from './signed-url';
export { assertValidContentType, attachmentContentDisposition, safeFilename } from './http-headers';
export { S3BlobStorage } from './s3/s3-blob-storage';
export {
  discardRestOfBody,
  fileParts,
  forwardDownload,
  FORWARD_MESSAGES,
  forwardUpload,
  INTERNAL_FILES_PATH,
  MULTIPART_MESSAGES,
  openSignedDownload,
  tooManyFiles,
  UPLOAD_DRAIN_LIMITS,
} from './http';
export type { FilePart, FilePartsLimits, ForwardedDownload, ForwardedUpload, OpenSignedDownloadOptions, SignedDownload } from './http';

