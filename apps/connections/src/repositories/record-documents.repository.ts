import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DOCUMENTS_SUBJECTS, type CallerIdentity, type UploadReply } from '@medfolio/contracts';
import { callerHeaders, INTERNAL_TOKEN_HEADER, RPC_CLIENT, type RpcClient } from '@medfolio/messaging';
import { ConnectionsConfig } from '../config';

/**
 * The documents service, as the patient's own uploads reach it: a multipart POST to its internal
 * /internal/documents route (INTERNAL_API_TOKEN, the owner as the caller; checked, stored, audited
 * and announced there as any upload), and its delete subject for the document a new one replaces.
 */
@Injectable()
export class RecordDocumentsRepository {
  constructor(
    @Inject(ConnectionsConfig) private readonly config: ConnectionsConfig,
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
  ) {}

  /** Whether documents can be handed over (INTERNAL_API_TOKEN is set). */
  get configured(): boolean {
    return Boolean(this.config.internalApiToken);
  }

  /**
   * Stores `bytes` as the owner's document named `filename`, with where it was fetched from (`source`,
   * kept by documents and shown by the summary's trends as the points' origin); answers its id.
   */
  async upload(ownerId: string, filename: string, bytes: Buffer, contentType: string, source?: string): Promise<string> {
    const token = this.config.internalApiToken;
    if (!token) throw new Error('INTERNAL_API_TOKEN is not set: documents cannot be handed over');
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(bytes)], { type: contentType }), filename);
    const response = await fetch(new URL('/internal/documents', this.config.documentsInternalUrl), {
      method: 'POST',
      headers: { [INTERNAL_TOKEN_HEADER]: token, ...callerHeaders(ownerCaller(ownerId)), ...(source ? { [SOURCE_HEADER]: encodeURIComponent(source.slice(0, 200)) } : {}) },
      body: form,
      signal: AbortSignal.timeout(60_000),
    });
    const reply = (await response.json().catch(() => undefined)) as (UploadReply & { message?: string }) | undefined;
    const id = reply?.documents?.[0]?.id;
    if (response.status !== 201 || !id) throw new Error(`documents answered ${response.status}${reply?.message ? `: ${reply.message}` : ''}`);
    return id;
  }

  /** Deletes the owner's document (already gone counts as done). */
  async remove(ownerId: string, documentId: string): Promise<void> {
    try {
      await this.rpc.send(DOCUMENTS_SUBJECTS.delete, { document_id: documentId }, ownerCaller(ownerId));
    } catch (error) {
      if ((error as { code?: string }).code !== 'NOT_FOUND') throw error;
    }
  }
}

/** Documents' header for where a document was fetched from (URI-encoded). */
const SOURCE_HEADER = 'x-document-source';

/** The patient, as the sync acts for them. */
function ownerCaller(ownerId: string): CallerIdentity {
  return { userId: ownerId, roles: ['patient'], correlationId: randomUUID() };
}
