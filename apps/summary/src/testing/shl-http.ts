import { DomainError, type CallerIdentity } from '@medfolio/contracts';
import type { ShlHttp } from '@medfolio/testing';
import type { ShareFormatsService } from '../services/share-formats.service';

/**
 * What the gateway does with an SHL manifest or file request (its status and body rules), handed
 * straight to the service: for a receiver that reads SMART Health Links without HTTP.
 */
export function shlHttp(formats: () => ShareFormatsService, caller: () => CallerIdentity): ShlHttp {
  return {
    async postJson(url, body) {
      const q = new URL(url).searchParams;
      try {
        const reply = await formats().manifest(caller(), {
          user: q.get('user') ?? '',
          tag: q.get('tag') ?? '',
          ...(body as { recipient: string }),
        });
        return { status: 200, body: JSON.parse(JSON.stringify(reply)) as unknown };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const left = error.details?.['remaining_attempts']?.[0];
        return error.code === 'UNAUTHENTICATED'
          ? { status: 401, body: { remainingAttempts: Number(left) } }
          : { status: 404, body: { message: error.message } };
      }
    },
    async get(url) {
      const q = new URL(url).searchParams;
      try {
        const reply = await formats().file(caller(), {
          user: q.get('user') ?? '',
          tag: q.get('tag') ?? '',
          token: q.get('token') ?? '',
        });
        return { status: 200, contentType: 'application/jose', text: reply.jwe };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return { status: 404, contentType: 'application/json', text: error.message };
      }
    },
  };
}
