import type { IncomingMessage } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError, type CallerIdentity } from '@medfolio/contracts';
import { callerHeaders, INTERNAL_TOKEN_HEADER } from '@medfolio/messaging';
import { forwardUpload, type ForwardedUpload } from '@medfolio/storage';
import { GatewayConfig } from '../config';

/** The services that take uploads, and their internal endpoints. */
export type UploadOwner = 'documents' | 'identity';

/**
 * Every upload the same way: the browser's multipart body is piped, as it arrives, to the internal
 * HTTP endpoint of the service that owns the files (documents: POST /internal/documents; identity:
 * POST /internal/profile-picture), which parses and checks it. File bytes never travel over NATS and
 * the gateway neither parses nor buffers them. The request carries the caller's identity and the
 * shared internal token.
 */
@Injectable()
export class InternalUploadRepository {
  constructor(@Inject(GatewayConfig) private readonly config: GatewayConfig) {}

  forward(caller: CallerIdentity, owner: UploadOwner, body: IncomingMessage): Promise<ForwardedUpload> {
    const token = this.config.internalApiToken;
    if (!token) return Promise.reject(new DomainError('UNAVAILABLE', 'Uploads are not configured (INTERNAL_API_TOKEN is not set).'));
    const target =
      owner === 'documents'
        ? new URL('/internal/documents', this.config.documentsInternalUrl)
        : new URL('/internal/profile-picture', this.config.identityInternalUrl);
    return forwardUpload(body, target, { [INTERNAL_TOKEN_HEADER]: token, ...callerHeaders(caller) });
  }
}
