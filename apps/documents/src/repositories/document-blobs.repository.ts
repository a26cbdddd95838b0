import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { BLOB_STORAGE, type BlobStorage, type PutBlobResult } from '@medfolio/storage';

/** Every document blob lives under this prefix, every thumbnail under the other; nothing else is touched. */
export const DOCUMENT_KEY_PREFIX = 'documents/';
export const THUMBNAIL_KEY_PREFIX = 'document-thumbnails/';

/** An owner id fit for a key segment (UUIDs and the like); anything else is a programming error. */
const OWNER_ID = /^[A-Za-z0-9_-]{1,128}$/;
const DOCUMENT_ID = /^[0-9a-f-]{36}$/;

/**
 * Document contents in blob storage (S3 with server-side encryption, or the encrypted filesystem
 * store) under keys the server makes: `documents/<owner>/<document id>`, never the client's
 * filename, which could collide, traverse or leak.
 */
@Injectable()
export class DocumentBlobsRepository {
  constructor(@Inject(BLOB_STORAGE) private readonly storage: BlobStorage) {}

  documentKey(ownerId: string, documentId: string): string {
    return `${DOCUMENT_KEY_PREFIX}${segment(ownerId)}/${id(documentId)}`;
  }

  thumbnailKey(ownerId: string, documentId: string): string {
    return `${THUMBNAIL_KEY_PREFIX}${segment(ownerId)}/${id(documentId)}.webp`;
  }

  /** Streams `body` into storage; all or nothing (a failing body leaves nothing behind). */
  put(key: string, body: Readable, contentType: string): Promise<PutBlobResult> {
    return this.storage.put(ownKey(key), body, { contentType });
  }

  get(key: string): Promise<Readable> {
    return this.storage.get(ownKey(key));
  }

  /** Idempotent. */
  delete(key: string): Promise<void> {
    return this.storage.delete(ownKey(key));
  }

  downloadUrl(
    key: string,
    options: { expiresInSeconds: number; filename: string; contentType: string },
  ): Promise<string> {
    return this.storage.createDownloadUrl(ownKey(key), options);
  }
}

function segment(ownerId: string): string {
  if (!OWNER_ID.test(ownerId)) throw new TypeError('A document owner id must be letters, digits, "-" or "_"');
  return ownerId;
}

function id(documentId: string): string {
  if (!DOCUMENT_ID.test(documentId)) throw new TypeError('A document id must be a UUID');
  return documentId;
}

/** Refuses any key outside the two prefixes, so this repository can never touch another service's blob. */
function ownKey(key: string): string {
  if (!(key.startsWith(DOCUMENT_KEY_PREFIX) || key.startsWith(THUMBNAIL_KEY_PREFIX)) || key.includes('..')) {
    throw new TypeError('Not a document blob key');
  }
  return key;
}
