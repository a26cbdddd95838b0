import type { IncomingMessage } from 'node:http';
import { DomainError, type CallerIdentity } from '@medfolio/contracts';
import type { InternalUploadRepository, UploadOwner } from '../repositories/internal-upload.repository';

export interface UploadRequest {
  headers: Record<string, string | string[] | undefined>;
  raw: IncomingMessage;
}
export interface UploadReply {
  status(code: number): UploadReply;
  header(name: string, value: string): UploadReply;
  send(body: unknown): unknown;
}

/**
 * What the gateway's upload routes share: a body that is not multipart/form-data is refused with
 * `refusal`; any other is streamed as it arrives to `owner`'s internal upload endpoint, and its answer
 * (status, body, and a closed connection when the owner stopped reading) is the reply.
 */
export async function forwardMultipart(
  uploads: InternalUploadRepository,
  owner: UploadOwner,
  refusal: string,
  req: UploadRequest,
  reply: UploadReply,
  caller: CallerIdentity,
): Promise<void> {
  const contentType = req.headers['content-type'];
  if (typeof contentType !== 'string' || !/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new DomainError('VALIDATION_FAILED', refusal);
  }
  const forwarded = await uploads.forward(caller, owner, req.raw);
  if (forwarded.closeConnection) reply.header('connection', 'close');
  reply.status(forwarded.status).send(forwarded.body);
}
