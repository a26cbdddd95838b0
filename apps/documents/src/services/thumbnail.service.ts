import { Readable } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import sharp from 'sharp';
import type { DocumentUploadedEvent } from '@medfolio/contracts';
import { DocumentsConfig } from '../config';
import { DocumentBlobsRepository } from '../repositories/document-blobs.repository';
import { DocumentsRepository } from '../repositories/documents.repository';

/** Thumbnails fit in this square (the dashboard's grid shows them at up to about 200 px). */
export const THUMBNAIL_SIZE = 256;
/** The most pixels decoded for a thumbnail: a few KB of PNG can declare billions. */
export const THUMBNAIL_MAX_INPUT_PIXELS = 50_000_000;

export type ThumbnailOutcome = 'made' | 'not-an-image' | 'too-large' | 'gone' | 'undecodable';

/**
 * Makes the thumbnail of an uploaded JPEG or PNG (documents.document.uploaded.v1): reads the blob
 * back (at most THUMBNAIL_SOURCE_MAX_BYTES: decoding holds the image in memory, which the upload path
 * never does), decodes it with pixel limits, and stores a WebP of at most 256x256 with no metadata
 * under a key derived from the document. One at a time (the consumer has one message in flight), so
 * memory stays bounded. A document deleted meanwhile gets no thumbnail (the one just made is removed).
 */
@Injectable()
export class ThumbnailService {
  private readonly logger = new Logger(ThumbnailService.name);

  constructor(
    @Inject(DocumentsConfig) private readonly config: DocumentsConfig,
    @Inject(DocumentsRepository) private readonly documents: DocumentsRepository,
    @Inject(DocumentBlobsRepository) private readonly blobs: DocumentBlobsRepository,
  ) {}

  async make(event: DocumentUploadedEvent): Promise<ThumbnailOutcome> {
    if (event.kind !== 'jpeg' && event.kind !== 'png') return 'not-an-image';
    if (event.size > this.config.thumbnailSourceMaxBytes) return 'too-large';
    const document = await this.documents.findActive(event.document_id);
    if (!document) return 'gone';
    const source = await readAll(await this.blobs.get(document.storageKey), this.config.thumbnailSourceMaxBytes);
    let thumbnail: Buffer;
    try {
      thumbnail = await sharp(source, {
        failOn: 'error',
        limitInputPixels: THUMBNAIL_MAX_INPUT_PIXELS,
        autoOrient: true,
        pages: 1,
      })
        .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 75 })
        .toBuffer();
    } catch (error) {
      // Passed the upload's structure checks but does not decode (or has too many pixels): no thumbnail.
      this.logger.warn({ documentId: document.id, err: String(error) }, 'no thumbnail: the image does not decode');
      return 'undecodable';
    }
    const key = this.blobs.thumbnailKey(document.ownerId, document.id);
    await this.blobs.put(key, Readable.from([thumbnail]), 'image/webp');
    if (!(await this.documents.setThumbnail(document.id, key))) {
      await this.blobs.delete(key);
      return 'gone';
    }
    return 'made';
  }
}

async function readAll(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      stream.destroy();
      throw new Error('The image is larger than the thumbnail source limit');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}
