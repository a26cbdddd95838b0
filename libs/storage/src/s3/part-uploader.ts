import {
  AbortMultipartUploadCommand,
  ChecksumAlgorithm,
  CompleteMultipartUploadCommand,
  type CompletedPart,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  type ServerSideEncryption,
  UploadPartCommand,
} from '@aws-sdk/client-s3';

/** S3 allows at most this many parts in one multipart upload. */
const MAX_PARTS = 10_000;

export interface ObjectTarget {
  Bucket: string;
  Key: string;
  ContentType: string;
  ServerSideEncryption?: ServerSideEncryption;
}

export interface PartUploadOptions {
  /** Bytes per part (S3's minimum is 5 MiB, except for the last part). */
  partSize: number;
  /** Parts sent at the same time. */
  queueSize: number;
}

/**
 * Streams `body` into one S3 object. A body that fits in one part goes as a single PutObject;
 * anything larger as a multipart upload with `queueSize` parts in flight, aborted (no object, no
 * orphaned parts) if the body or any request fails.
 *
 * Why not @aws-sdk/lib-storage's Upload: it allocates a new buffer for every part, and those
 * buffers, promoted to the old generation while their request is in flight, stay in memory until
 * V8's next full collection: 77-100 MB of resident growth for a 256 MB upload (bench/upload.mjs),
 * against a goal of 64. Here the (queueSize + 1) part buffers are allocated once per upload and
 * reused, so memory stays at that bound whatever the file size, and nothing waits for the collector.
 * The checksum handling follows lib-storage: with the client's default (checksums "when supported")
 * the multipart upload asks for CRC32 and each part's checksum goes into the completion.
 */
export async function uploadInParts(
  client: S3Client,
  target: ObjectTarget,
  body: AsyncIterable<Buffer>,
  options: PartUploadOptions,
): Promise<void> {
  const free: Buffer[] = [];
  const inFlight = new Set<Promise<void>>();
  const parts: CompletedPart[] = [];
  let failure: { error: unknown } | undefined;
  let uploadId: string | undefined;
  let partNumber = 0;
  let current: Buffer = Buffer.allocUnsafeSlow(options.partSize);
  let filled = 0;

  const createUpload = async (): Promise<string> => {
    const checksums = await client.config.requestChecksumCalculation();
    const created = await client.send(
      new CreateMultipartUploadCommand({
        ...target,
        ...(checksums === 'WHEN_SUPPORTED' ? { ChecksumAlgorithm: ChecksumAlgorithm.CRC32 } : {}),
      }),
    );
    if (!created.UploadId) throw new Error('S3 did not return an upload id for the multipart upload');
    return created.UploadId;
  };

  /** Sends one part; waits while `queueSize` parts are in flight. Its buffer is reused once the request is over. */
  const sendPart = async (id: string, buffer: Buffer, length: number): Promise<void> => {
    partNumber += 1;
    if (partNumber > MAX_PARTS) throw new Error(`The object would need more than ${MAX_PARTS} parts of ${options.partSize} bytes`);
    const number = partNumber;
    const request: Promise<void> = client
      .send(
        new UploadPartCommand({
          Bucket: target.Bucket,
          Key: target.Key,
          UploadId: id,
          PartNumber: number,
          Body: buffer.subarray(0, length),
          ContentLength: length,
        }),
      )
      .then(
        (result) => {
          if (!result.ETag) throw new Error(`S3 returned no ETag for part ${number}`);
          parts.push({
            PartNumber: number,
            ETag: result.ETag,
            ...(result.ChecksumCRC32 && { ChecksumCRC32: result.ChecksumCRC32 }),
            ...(result.ChecksumCRC32C && { ChecksumCRC32C: result.ChecksumCRC32C }),
            ...(result.ChecksumSHA1 && { ChecksumSHA1: result.ChecksumSHA1 }),
            ...(result.ChecksumSHA256 && { ChecksumSHA256: result.ChecksumSHA256 }),
          });
        },
      )
      .catch((error: unknown) => {
        failure ??= { error };
      })
      .finally(() => {
        inFlight.delete(request);
        free.push(buffer);
      });
    inFlight.add(request);
    while (inFlight.size >= options.queueSize) await Promise.race(inFlight);
    if (failure) throw failure.error;
  };

  try {
    for await (const chunk of body) {
      let offset = 0;
      while (offset < chunk.length) {
        const copied = chunk.copy(current, filled, offset);
        filled += copied;
        offset += copied;
        if (filled === options.partSize) {
          uploadId ??= await createUpload();
          await sendPart(uploadId, current, filled);
          current = free.pop() ?? Buffer.allocUnsafeSlow(options.partSize);
          filled = 0;
        }
      }
    }
    if (uploadId === undefined) {
      // Smaller than one part: a single request.
      await client.send(new PutObjectCommand({ ...target, Body: current.subarray(0, filled), ContentLength: filled }));
      return;
    }
    if (filled > 0) await sendPart(uploadId, current, filled);
    await Promise.all(inFlight);
    if (failure) throw failure.error;
    parts.sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0));
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: target.Bucket,
        Key: target.Key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
  } catch (error) {
    await Promise.allSettled(inFlight);
    if (uploadId !== undefined) {
      await client
        .send(new AbortMultipartUploadCommand({ Bucket: target.Bucket, Key: target.Key, UploadId: uploadId }))
        .catch(() => undefined);
    }
    throw error;
  }
}
