import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
  type ServerSideEncryption,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { BuildMiddleware, MetadataBearer } from '@smithy/types';
import { Readable, pipeline } from 'node:stream';

import { assertSafeBlobKey } from '../blob-key';
import type { BlobHead, BlobStorage, DownloadUrlOptions, PutBlobOptions, PutBlobResult } from '../blob-storage';
import type { S3StorageConfig } from '../config';
import { BlobNotFoundError, BlobStorageError } from '../errors';
import { HashingStream } from '../hashing-stream';
import { assertValidContentType, attachmentContentDisposition } from '../http-headers';
import { DEFAULT_DOWNLOAD_BASE_PATH, assertValidUrlSigning, gatewayDownloadUrl } from '../signed-url';
import { uploadInParts } from './part-uploader';

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
const MIN_PART_SIZE = 5 * 1024 * 1024;

/**
 * Blobs as objects in one S3 (or S3-compatible) bucket. Uploads stream through a multipart
 * upload (part-uploader.ts) that reuses a few part buffers and aborts the multipart upload if
 * anything fails, so no partial object or orphaned parts remain. Objects are encrypted by the
 * server (SSE-S3 unless configured otherwise). Download URLs are the gateway's signed links when
 * `gatewayDownloads` is set (the gateway streams the object through get()), otherwise
 * SigV4-presigned S3 URLs.
 */
export class S3BlobStorage implements BlobStorage {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly serverSideEncryption: ServerSideEncryption | undefined;

  constructor(private readonly config: S3StorageConfig) {
    if (config.partSizeBytes !== undefined && config.partSizeBytes < MIN_PART_SIZE) {
      throw new Error(`S3 part size must be at least ${MIN_PART_SIZE} bytes (the S3 minimum)`);
    }
    if ((config.accessKeyId === undefined) !== (config.secretAccessKey === undefined)) {
      throw new Error('Give both the S3 access key id and the secret access key, or neither');
    }
    if (config.gatewayDownloads) {
      assertValidUrlSigning(config.gatewayDownloads.urlSigningKey, config.gatewayDownloads.basePath ?? DEFAULT_DOWNLOAD_BASE_PATH);
    }
    this.bucket = config.bucket;
    const sse = config.serverSideEncryption ?? 'AES256';
    this.serverSideEncryption = sse === 'none' ? undefined : sse;
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle ?? false,
      credentials:
        config.accessKeyId !== undefined && config.secretAccessKey !== undefined
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
    });
    if (!(config.signPayload ?? false)) this.client.middlewareStack.add(unsignedChecksummedPayload, UNSIGNED_PAYLOAD_STEP);
  }

  /**
   * Creates the bucket unless it exists; `createBlobStorage` calls it at startup when
   * `createBucketIfMissing` is set. Safe to call concurrently from several instances.
   */
  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return;
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    try {
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      if (!(error instanceof S3ServiceException && error.name === 'BucketAlreadyOwnedByYou')) throw error;
    }
  }

  async put(key: string, body: Readable, options: PutBlobOptions = {}): Promise<PutBlobResult> {
    assertSafeBlobKey(key);
    const contentType = options.contentType ?? DEFAULT_CONTENT_TYPE;
    assertValidContentType(contentType);
    const hasher = new HashingStream();
    // A source error destroys `hasher` with it, which fails the upload, which aborts it.
    pipeline(body, hasher, () => undefined);
    try {
      await uploadInParts(
        this.client,
        { Bucket: this.bucket, Key: key, ContentType: contentType, ServerSideEncryption: this.serverSideEncryption },
        hasher,
        { partSize: this.config.partSizeBytes ?? MIN_PART_SIZE, queueSize: this.config.queueSize ?? 4 },
      );
    } catch (error) {
      // Stop reading the source (and release its file handle) when the upload failed on the S3 side.
      hasher.destroy();
      throw error;
    }
    return { key, ...hasher.result() };
  }

  async get(key: string): Promise<Readable> {
    assertSafeBlobKey(key);
    try {
      const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!(Body instanceof Readable)) throw new BlobStorageError('S3 returned no readable body');
      return Body;
    } catch (error) {
      throw isNotFound(error) ? new BlobNotFoundError(key) : error;
    }
  }

  async head(key: string): Promise<BlobHead> {
    assertSafeBlobKey(key);
    try {
      const object = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        key,
        size: object.ContentLength ?? 0,
        contentType: object.ContentType ?? DEFAULT_CONTENT_TYPE,
        lastModified: object.LastModified ?? new Date(0),
        serverSideEncryption: object.ServerSideEncryption,
      };
    } catch (error) {
      throw isNotFound(error) ? new BlobNotFoundError(key) : error;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeBlobKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async createDownloadUrl(key: string, options: DownloadUrlOptions): Promise<string> {
    assertSafeBlobKey(key);
    if (options.contentType !== undefined) assertValidContentType(options.contentType);
    const gateway = this.config.gatewayDownloads;
    if (gateway) {
      // The gateway's own signed link (files.controller.ts), served from this bucket through get().
      return gatewayDownloadUrl(key, options, gateway.urlSigningKey, gateway.basePath ?? DEFAULT_DOWNLOAD_BASE_PATH);
    }
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      // Signed into the URL: S3 answers with these headers, and they cannot be changed by the holder.
      ResponseContentDisposition: attachmentContentDisposition(options.filename ?? key.split('/').pop() ?? key),
      ResponseContentType: options.contentType,
    });
    return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds });
  }

  async isHealthy(): Promise<boolean> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return true;
    } catch {
      return false;
    }
  }

  /** Closes the HTTP connections of the S3 client (tests and graceful shutdown). */
  destroy(): void {
    this.client.destroy();
  }
}

const CHECKSUM_HEADER = /^x-amz-checksum-(crc32|crc32c|crc64nvme|sha1|sha256)$/i;
const UNSIGNED_PAYLOAD_STEP = { step: 'build', priority: 'low', name: 'medfolioUnsignedChecksummedPayload' } as const;

/**
 * Leaves the body out of the SigV4 signature ("UNSIGNED-PAYLOAD") on requests whose body already
 * carries a checksum header (the SDK adds CRC32 to PutObject and UploadPart), so that the body is
 * not hashed a second time with SHA-256 only to sign it. The server still checks every part against
 * its checksum, TLS protects it in transit, and the documents service checks its own SHA-256 of the
 * whole file whenever a download link is issued (which also catches a body swapped on a plain-http
 * link, where a CRC32 could be recomputed). Runs in the build step after the SDK's checksum middleware.
 */
const unsignedChecksummedPayload: BuildMiddleware<object, MetadataBearer> = (next) => async (args) => {
  const headers = hasHeaders(args.request) ? args.request.headers : undefined;
  if (headers && Object.keys(headers).some((name) => CHECKSUM_HEADER.test(name))) {
    headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
  }
  return next(args);
};

function hasHeaders(request: unknown): request is { headers: Record<string, string> } {
  return typeof request === 'object' && request !== null && typeof (request as { headers?: unknown }).headers === 'object';
}

/** HEAD requests have no error body, so a 404 status is all S3 tells us. */
function isNotFound(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)
  );
}
