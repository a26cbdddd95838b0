import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';

import type { S3StorageConfig } from '../config';
import { verifySignedUrl } from '../signed-url';
import { S3BlobStorage } from './s3-blob-storage';

/** What the store sends, without a server: the integration tests cover the real exchange. */
describe('S3BlobStorage requests', () => {
  const config: S3StorageConfig = {
    endpoint: 'http://127.0.0.1:9',
    region: 'eu-central-1',
    bucket: 'records',
    accessKeyId: 'AKIDEXAMPLE',
    secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
    forcePathStyle: true,
  };

  async function sentPutObject(overrides: Partial<S3StorageConfig>): Promise<PutObjectCommand['input']> {
    const send = jest.spyOn(S3Client.prototype, 'send').mockResolvedValue({} as never);
    const storage = new S3BlobStorage({ ...config, ...overrides });
    await storage.put('a/b.pdf', Readable.from([Buffer.from('%PDF')]), { contentType: 'application/pdf' });
    storage.destroy();
    const command = send.mock.calls.map(([c]) => c).find((c) => c instanceof PutObjectCommand);
    send.mockRestore();
    if (!(command instanceof PutObjectCommand)) throw new Error('no PutObject sent');
    return command.input;
  }

  it('asks for SSE-S3 (AES256) by default', async () => {
    expect(await sentPutObject({})).toMatchObject({
      Bucket: 'records',
      Key: 'a/b.pdf',
      ContentType: 'application/pdf',
      ServerSideEncryption: 'AES256',
    });
  });

  it('sends the configured server-side encryption, or none when disabled', async () => {
    expect((await sentPutObject({ serverSideEncryption: 'aws:kms' })).ServerSideEncryption).toBe('aws:kms');
    expect((await sentPutObject({ serverSideEncryption: 'none' })).ServerSideEncryption).toBeUndefined();
  });

  it('presigns downloads as attachments with a safe filename and the requested type', async () => {
    const storage = new S3BlobStorage(config);
    const url = new URL(
      await storage.createDownloadUrl('a/b.pdf', {
        expiresInSeconds: 120,
        filename: '../x"y.pdf',
        contentType: 'application/pdf',
      }),
    );
    storage.destroy();
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:9/records/a/b.pdf');
    // A name of token characters needs neither quotes nor filename* (content-disposition, RFC 6266).
    expect(url.searchParams.get('response-content-disposition')).toBe('attachment; filename=x_y.pdf');
    expect(url.searchParams.get('response-content-type')).toBe('application/pdf');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('120');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });

  /** The headers of the first request the store sends, as signed, caught before it leaves. */
  async function signedHeadersOfPut(overrides: Partial<S3StorageConfig>): Promise<Record<string, string>> {
    const storage = new S3BlobStorage({ ...config, ...overrides });
    let caught: Record<string, string> | undefined;
    storage['client'].middlewareStack.add(
      () => async (args) => {
        caught = { ...(args.request as { headers: Record<string, string> }).headers };
        return { response: { statusCode: 200, headers: {} }, output: { $metadata: {} } } as never;
      },
      { step: 'finalizeRequest', priority: 'low', name: 'catchSignedRequest' },
    );
    await storage.put('a/b.pdf', Readable.from([Buffer.from('%PDF-1.7 body')]), { contentType: 'application/pdf' });
    storage.destroy();
    if (!caught) throw new Error('no request was sent');
    return caught;
  }

  it('leaves checksummed bodies out of the signature by default (no second SHA-256 of every byte)', async () => {
    const headers = await signedHeadersOfPut({});
    expect(headers['x-amz-checksum-crc32']).toMatch(/^[A-Za-z0-9+/]{6}==$/);
    expect(headers['x-amz-content-sha256']).toBe('UNSIGNED-PAYLOAD');
    // The header itself is signed, so it cannot be swapped for a hash on the way.
    expect(headers['authorization']).toMatch(/SignedHeaders=[^,]*x-amz-content-sha256/);
  });

  it('signs the body with its SHA-256 when signPayload is set', async () => {
    const headers = await signedHeadersOfPut({ signPayload: true });
    expect(headers['x-amz-content-sha256']).toBe(createHash('sha256').update('%PDF-1.7 body').digest('hex'));
  });

  it('gives the gateway\'s signed links instead of presigned S3 URLs when gateway downloads are on', async () => {
    const urlSigningKey = 'a-url-signing-key-of-at-least-32-characters';
    const storage = new S3BlobStorage({ ...config, gatewayDownloads: { urlSigningKey } });
    const link = await storage.createDownloadUrl('a/b.pdf', {
      expiresInSeconds: 300,
      filename: 'Blood test.pdf',
      contentType: 'application/pdf',
    });
    storage.destroy();
    expect(link).toMatch(/^\/api\/files\/a\/b\.pdf\?expires=\d+&filename=Blood\+test\.pdf&type=application%2Fpdf&signature=/);
    expect(verifySignedUrl(link, { signingKey: urlSigningKey })).toMatchObject({
      valid: true,
      key: 'a/b.pdf',
      filename: 'Blood test.pdf',
      contentType: 'application/pdf',
    });
    expect(verifySignedUrl(link, { signingKey: 'another-url-signing-key-of-32-characters' }).valid).toBe(false);
  });

  it('refuses a gateway download key that is too short', () => {
    expect(() => new S3BlobStorage({ ...config, gatewayDownloads: { urlSigningKey: 'short' } })).toThrow('at least 32');
  });

  it('refuses a part size below the S3 minimum of 5 MiB', () => {
    expect(() => new S3BlobStorage({ ...config, partSizeBytes: 1024 })).toThrow('at least 5242880');
  });
});
