import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError, type CallerIdentity } from '@medfolio/contracts';
import { callerHeaders, INTERNAL_TOKEN_HEADER } from '@medfolio/messaging';
import { GatewayConfig } from '../config';

export interface ForwardedReply {
  status: number;
  body: unknown;
}

/**
 * Streams an upload to a service's internal HTTP endpoint (file bytes never travel over NATS),
 * with the caller's identity and the shared internal token in headers.
 */
@Injectable()
export class InternalUploadRepository {
  constructor(@Inject(GatewayConfig) private readonly config: GatewayConfig) {}

  async putProfilePicture(caller: CallerIdentity, file: Readable): Promise<ForwardedReply> {
    if (!this.config.internalApiToken) throw new DomainError('UNAVAILABLE', 'Uploads are not configured (INTERNAL_API_TOKEN is not set).');
    let response: Response;
    try {
      response = await fetch(new URL('/internal/profile-picture', this.config.identityInternalUrl), {
        method: 'PUT',
        body: file as unknown as ReadableStream,
        duplex: 'half',
        headers: {
          'content-type': 'application/octet-stream',
          [INTERNAL_TOKEN_HEADER]: this.config.internalApiToken,
          ...callerHeaders(caller),
        },
        signal: AbortSignal.timeout(60_000),
      } as RequestInit);
    } catch {
      throw new DomainError('UNAVAILABLE', 'The upload could not be completed; please try again shortly.');
    }
    return { status: response.status, body: await response.json().catch(() => ({ message: 'Upload failed.', code: 'INTERNAL' })) };
  }
}
