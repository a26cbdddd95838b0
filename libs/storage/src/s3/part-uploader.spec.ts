import { CreateMultipartUploadCommand, type S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';

import { uploadInParts } from './part-uploader';

const target = { Bucket: 'records', Key: 'a/b.pdf', ContentType: 'application/pdf', ServerSideEncryption: 'AES256' as const };
const PART = 1024;

/** A stand-in S3 client that records each command (parts keep a copy of their bytes as sent). */
function fakeClient(options: { failPart?: number; partDelayMs?: number; checksums?: 'WHEN_SUPPORTED' | 'WHEN_REQUIRED' } = {}) {
  const sent: { name: string; input: Record<string, unknown>; bytes?: Buffer }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const client = {
    config: { requestChecksumCalculation: () => Promise.resolve(options.checksums ?? 'WHEN_SUPPORTED') },
    async send(command: { input: Record<string, unknown> }) {
      const name = command.constructor.name;
      const body = command.input['Body'];
      sent.push({ name, input: command.input, bytes: Buffer.isBuffer(body) ? Buffer.from(body) : undefined });
      if (command instanceof CreateMultipartUploadCommand) return { UploadId: 'upload-1' };
      if (command instanceof UploadPartCommand) {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, options.partDelayMs ?? 1));
        inFlight -= 1;
        const number = command.input.PartNumber as number;
        if (number === options.failPart) throw new Error(`part ${number} refused`);
        return { ETag: `"etag-${number}"`, ChecksumCRC32: `crc-${number}` };
      }
      return {};
    },
  };
  return { client: client as unknown as S3Client, sent, maxInFlight: () => maxInFlight };
}

async function* pieces(data: Buffer, size: number, failAfter?: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < data.length; i += size) {
    if (failAfter !== undefined && i >= failAfter) throw new Error('client disconnected');
    yield data.subarray(i, i + size);
  }
}

describe('uploadInParts', () => {
  it('sends a body smaller than one part as a single PutObject', async () => {
    const { client, sent } = fakeClient();
    const data = randomBytes(PART - 1);
    await uploadInParts(client, target, pieces(data, 100), { partSize: PART, queueSize: 2 });
    expect(sent.map((s) => s.name)).toEqual(['PutObjectCommand']);
    expect(sent[0]!.input).toMatchObject({ ...target, ContentLength: PART - 1 });
    expect(sent[0]!.bytes!.equals(data)).toBe(true);
  });

  it('sends an empty body as an empty object', async () => {
    const { client, sent } = fakeClient();
    await uploadInParts(client, target, pieces(Buffer.alloc(0), 100), { partSize: PART, queueSize: 2 });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.input).toMatchObject({ ContentLength: 0 });
  });

  it.each([PART, 3 * PART, 3 * PART + 1, 10 * PART + 333])(
    '%i bytes in pieces of any size: parts of partSize, in order, that add up to the body; completion lists each part and its checksum',
    async (length) => {
      const data = randomBytes(length);
      for (const piece of [1000, PART, 5000]) {
        const { client, sent } = fakeClient();
        await uploadInParts(client, target, pieces(data, piece), { partSize: PART, queueSize: 3 });
        const parts = sent.filter((s) => s.input['PartNumber'] !== undefined && s.bytes);
        expect(sent[0]!.name).toBe('CreateMultipartUploadCommand');
        expect(sent[0]!.input).toMatchObject({ ...target, ChecksumAlgorithm: 'CRC32' });
        expect(Buffer.concat(parts.map((p) => p.bytes!)).equals(data)).toBe(true);
        expect(parts.slice(0, -1).every((p) => p.bytes!.length === PART)).toBe(true);
        const complete = sent.at(-1)!;
        expect(complete.name).toBe('CompleteMultipartUploadCommand');
        expect(complete.input['MultipartUpload']).toEqual({
          Parts: parts.map((_, i) => ({ PartNumber: i + 1, ETag: `"etag-${i + 1}"`, ChecksumCRC32: `crc-${i + 1}` })),
        });
      }
    },
  );

  it('asks for no checksum algorithm when the client computes checksums only when required', async () => {
    const { client, sent } = fakeClient({ checksums: 'WHEN_REQUIRED' });
    await uploadInParts(client, target, pieces(randomBytes(2 * PART), 500), { partSize: PART, queueSize: 2 });
    expect(sent[0]!.input['ChecksumAlgorithm']).toBeUndefined();
  });

  it('keeps at most queueSize parts in flight and reuses queueSize + 1 part buffers, whatever the size', async () => {
    const { client, sent, maxInFlight } = fakeClient({ partDelayMs: 5 });
    const allocate = jest.spyOn(Buffer, 'allocUnsafeSlow');
    try {
      await uploadInParts(client, target, pieces(randomBytes(40 * PART), 700), { partSize: PART, queueSize: 3 });
      expect(maxInFlight()).toBe(3);
      expect(allocate.mock.calls.filter(([size]) => size === PART).length).toBeLessThanOrEqual(4);
    } finally {
      allocate.mockRestore();
    }
    expect(sent.filter((s) => s.name === 'UploadPartCommand')).toHaveLength(40);
  });

  it('aborts the multipart upload and stops reading when a part is refused', async () => {
    const { client, sent } = fakeClient({ failPart: 2 });
    let read = 0;
    async function* counted() {
      for await (const piece of pieces(randomBytes(50 * PART), PART)) {
        read += 1;
        yield piece;
      }
    }
    await expect(uploadInParts(client, target, counted(), { partSize: PART, queueSize: 2 })).rejects.toThrow('part 2 refused');
    expect(sent.at(-1)!.name).toBe('AbortMultipartUploadCommand');
    expect(sent.at(-1)!.input).toEqual({ Bucket: 'records', Key: 'a/b.pdf', UploadId: 'upload-1' });
    expect(sent.map((s) => s.name)).not.toContain('CompleteMultipartUploadCommand');
    expect(read).toBeLessThan(10);
  });

  it('aborts the multipart upload when the body fails midway, after the parts in flight are over', async () => {
    const { client, sent } = fakeClient({ partDelayMs: 5 });
    await expect(
      uploadInParts(client, target, pieces(randomBytes(20 * PART), PART, 5 * PART), { partSize: PART, queueSize: 2 }),
    ).rejects.toThrow('client disconnected');
    const names = sent.map((s) => s.name);
    expect(names.at(-1)).toBe('AbortMultipartUploadCommand');
    expect(names).not.toContain('CompleteMultipartUploadCommand');
  });

  it('sends nothing at all when the body fails within the first part', async () => {
    const { client, sent } = fakeClient();
    await expect(uploadInParts(client, target, pieces(randomBytes(PART), 100, 300), { partSize: PART, queueSize: 2 })).rejects.toThrow(
      'client disconnected',
    );
    expect(sent).toEqual([]);
  });
});
