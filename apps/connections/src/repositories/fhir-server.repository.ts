import { Inject, Injectable } from '@nestjs/common';
import { ConnectionsConfig } from '../config';
import { SmartServerRepository, SmartServerUnavailable } from './smart-server.repository';

/** One FHIR answer: its status, the parsed JSON (undefined when not JSON), and a 429's Retry-After in seconds. */
export interface FhirAnswer {
  status: number;
  body: unknown;
  retryAfterSeconds?: number;
}

/**
 * The only I/O with EHRs' FHIR servers: one GET with the bearer token. The URL is checked as the
 * authorization server's are (https, or loopback http when allowed), redirects are refused, answers
 * are bounded (CONNECTIONS_SYNC_MAX_ANSWER_BYTES) and time-limited (SMART_HTTP_TIMEOUT_MS). Neither
 * the token nor the body is ever logged.
 */
@Injectable()
export class FhirServerRepository {
  constructor(
    @Inject(ConnectionsConfig) private readonly config: ConnectionsConfig,
    @Inject(SmartServerRepository) private readonly smart: SmartServerRepository,
  ) {}

  async get(target: string, accessToken: string): Promise<FhirAnswer> {
    const url = this.smart.checkUrl(target);
    let response: Response;
    try {
      response = await fetch(url, { headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/fhir+json' }, redirect: 'error', signal: AbortSignal.timeout(this.config.httpTimeoutMs) });
    } catch (error) {
      throw new SmartServerUnavailable(`the server could not be reached (${(error as Error).name})`);
    }
    const text = await readBounded(response, this.config.syncMaxAnswerBytes);
    let body: unknown = undefined;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    }
    const retryAfter = Number(response.headers.get('retry-after'));
    return { status: response.status, body, ...(response.status === 429 && Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterSeconds: retryAfter } : {}) };
  }
}

async function readBounded(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new SmartServerUnavailable(`an answer is larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
