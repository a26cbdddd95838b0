/**
 * The S3 store against a real S3-compatible server that verifies SigV4 signatures: the one named by
 * S3_ENDPOINT & co., or else a versitygw started for this file (libs/testing/src/s3-server.ts).
 */
import { GetObjectCommand, HeadObjectCommand, ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

import type { S3StorageConfig } from '../config';
import { BlobNotFoundError } from '../errors';
import { type S3TestServer, useS3TestServer } from '@medfolio/testing';
import { S3BlobStorage } from './s3-blob-storage';

const MiB = 1024 * 1024;
let server: S3TestServer;
let config: S3StorageConfig;
let storage: S3BlobStorage;
let client: S3Client;
/** Every key of this run lives under a fresh prefix, so a shared server's leftovers never interfere. */
const prefix = `int-${randomUUID()}`;

beforeAll(async () => {
  server = await useS3TestServer();
  config = {
    endpoint: server.endpoint,
    region: server.region,
    bucket: server.bucket,
    accessKeyId: server.accessKeyId,
    secretAccessKey: server.secretAccessKey,
    forcePathStyle: true,
    serverSideEncryption: process.env['S3_SSE'] === 'none' ? 'none' : 'AES256',
  };
  storage = new S3BlobStorage(config);
  await storage.ensureBucket();
  client = new S3Client({
    endpoint: server.endpoint,
    region: server.region,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  });
}, 60_000);

afterAll(async () => {
  storage?.destroy();
  client?.destroy();
  await server?.stop();
});

/** `size` random bytes generated while streamed, in 1 MiB pieces; `sha256()` once they have all been read. */
function randomSource(size: number): { stream: Readable; sha256: () => string } {
  const hash = createHash('sha256');
  const stream = Readable.from(
    (function* pieces() {
      for (let offset = 0; offset < size; offset += MiB) {
        const piece = randomBytes(Math.min(MiB, size - offset));
        hash.update(piece);
        yield piece;
      }
    })(),
  );
  return { stream, sha256: () => hash.digest('hex') };
}

async function sha256Of(stream: AsyncIterable<Uint8Array>): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex') };
}

describe('S3BlobStorage against a real S3 server', () => {
  it('is healthy with the right credentials', async () => {
    expect(await storage.isHealthy()).toBe(true);
  });

  it('puts, heads, gets and deletes a blob, reporting its SHA-256', async () => {
    const key = `${prefix}/small.txt`;
    const data = Buffer.from('Blood pressure 120/80, 2025-03-01');
    const expectedSha = createHash('sha256').update(data).digest('hex');

    expect(await storage.put(key, Readable.from([data]), { contentType: 'text/plain' })).toEqual({
      key,
      size: data.length,
      sha256: expectedSha,
    });
    expect(await storage.head(key)).toMatchObject({ key, size: data.length, contentType: 'text/plain' });
    expect(await sha256Of(await storage.get(key))).toEqual({ size: data.length, sha256: expectedSha });

    await storage.delete(key);
    await expect(storage.head(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(storage.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('uploads 20 MB as a multipart upload', async () => {
    const key = `${prefix}/large.bin`;
    const size = 20 * 1000 * 1000;
    const source = randomSource(size);

    const result = await storage.put(key, source.stream);
    const expectedSha = source.sha256();

    expect(result).toEqual({ key, size, sha256: expectedSha });

    const { ETag, ContentLength } = await client.send(new HeadObjectCommand({ Bucket: server.bucket, Key: key }));
    expect(ContentLength).toBe(size);
    expect(ETag).toMatch(/-4"$/); // a multipart ETag ends in "-<parts>": 4 parts of 5 MiB
    expect(await sha256Of(await storage.get(key))).toEqual({ size, sha256: expectedSha });
  }, 60_000);

  it('aborts the upload when the source fails midway: no object and no pending multipart upload', async () => {
    const key = `${prefix}/aborted.bin`;
    const source = Readable.from(
      (async function* failingAfter12MiB() {
        for (let i = 0; i < 12; i++) yield randomBytes(MiB);
        throw new Error('client disconnected');
      })(),
    );

    await expect(storage.put(key, source)).rejects.toThrow('client disconnected');

    await expect(storage.head(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    const { Uploads } = await client.send(new ListMultipartUploadsCommand({ Bucket: server.bucket, Prefix: key }));
    expect(Uploads ?? []).toEqual([]);
  }, 60_000);

  it('sends parts unsigned by default, and the server still refuses a part altered after its checksum', async () => {
    // One byte of each part's body is changed after the request is signed, as a faulty network
    // or proxy could: with "UNSIGNED-PAYLOAD", the part's CRC32 is what the server checks it against.
    const tampering = new S3BlobStorage(config);
    let sentUnsigned = 0;
    tampering['client'].middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { headers: Record<string, string>; body?: unknown };
        if (request.headers['x-amz-content-sha256'] === 'UNSIGNED-PAYLOAD') sentUnsigned += 1;
        if (request.body instanceof Uint8Array && request.body.length > 0) {
          const altered = Buffer.from(request.body);
          altered[altered.length >> 1] ^= 0xff;
          request.body = altered;
        }
        return next(args);
      },
      { step: 'finalizeRequest', priority: 'low', name: 'alterBodyAfterSigning' },
    );
    const key = `${prefix}/altered.bin`;
    try {
      await expect(tampering.put(key, randomSource(6 * MiB).stream)).rejects.toThrow();
    } finally {
      tampering.destroy();
    }
    expect(sentUnsigned).toBeGreaterThan(0);
    await expect(storage.head(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    const { Uploads } = await client.send(new ListMultipartUploadsCommand({ Bucket: server.bucket, Prefix: key }));
    expect(Uploads ?? []).toEqual([]);
  }, 60_000);

  it('uploads with server-side encryption requested, which the server reports on head if it implements SSE', async () => {
    const key = `${prefix}/encrypted.txt`;
    await storage.put(key, Readable.from([Buffer.from('secret')]));
    const { serverSideEncryption } = await storage.head(key);
    if (config.serverSideEncryption === 'none' || server.reportsServerSideEncryption === false) {
      expect(serverSideEncryption).toBeUndefined();
    } else if (server.reportsServerSideEncryption) {
      expect(serverSideEncryption).toBe('AES256');
    } else {
      expect([undefined, 'AES256']).toContain(serverSideEncryption);
    }
  });

  describe('presigned download URLs', () => {
    const key = `${prefix}/report.pdf`;
    const data = randomBytes(100_000);

    beforeAll(async () => {
      await storage.put(key, Readable.from([data]), { contentType: 'application/octet-stream' });
    });

    it('download the blob with fetch() as an attachment with the requested type', async () => {
      const url = await storage.createDownloadUrl(key, {
        expiresInSeconds: 60,
        filename: 'Befund März.pdf',
        contentType: 'application/pdf',
      });

      const response = await fetch(url);

      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename="Befund M_rz.pdf"; filename*=UTF-8''Befund%20M%C3%A4rz.pdf`,
      );
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(await response.arrayBuffer()).equals(data)).toBe(true);
    });

    it('stop working once expired', async () => {
      const url = await storage.createDownloadUrl(key, { expiresInSeconds: 1 });
      await sleep(2_100);
      const response = await fetch(url);
      await response.arrayBuffer();
      expect(response.status).toBe(403);
    });

    it('are refused when the signature is altered', async () => {
      const url = new URL(await storage.createDownloadUrl(key, { expiresInSeconds: 60 }));
      const signature = url.searchParams.get('X-Amz-Signature') ?? '';
      url.searchParams.set('X-Amz-Signature', `${signature.startsWith('0') ? '1' : '0'}${signature.slice(1)}`);
      const response = await fetch(url);
      await response.arrayBuffer();
      expect(response.status).toBe(403);
    });
  });

  describe('with a wrong secret key', () => {
    let impostor: S3BlobStorage;
    let impostorClient: S3Client;

    beforeAll(() => {
      impostor = new S3BlobStorage({ ...config, secretAccessKey: `${config.secretAccessKey}x` });
      impostorClient = new S3Client({
        endpoint: server.endpoint,
        region: server.region,
        forcePathStyle: true,
        credentials: { accessKeyId: server.accessKeyId, secretAccessKey: `${server.secretAccessKey}x` },
      });
    });

    afterAll(() => {
      impostor.destroy();
      impostorClient.destroy();
    });

    it('the server refuses the request (the SigV4 signature is verified)', async () => {
      const key = `${prefix}/guarded.txt`;
      await storage.put(key, Readable.from([Buffer.from('x')]));

      const error = await impostorClient
        .send(new GetObjectCommand({ Bucket: server.bucket, Key: key }))
        .catch((e: unknown) => e as { name: string; $metadata: { httpStatusCode?: number } });

      expect(error).toMatchObject({ name: 'SignatureDoesNotMatch', $metadata: { httpStatusCode: 403 } });
      expect(await impostor.isHealthy()).toBe(false);
      await expect(impostor.put(`${prefix}/forged.txt`, Readable.from([Buffer.from('x')]))).rejects.toMatchObject({
        $metadata: { httpStatusCode: 403 },
      });
    });
  });
});
