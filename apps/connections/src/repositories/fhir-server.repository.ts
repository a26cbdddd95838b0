import { Inject, Injectable } from '@nestjs/common';
import { ConnectionsConfig } from '../config';
import { SmartServerRepository } from './smart-server.repository';

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
    const { status, body, headers } = await this.smart.fetchJson(
      target,
      { headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/fhir+json' } },
      this.config.syncMaxAnswerBytes,
    );
    const retryAfter = Number(headers.get('retry-after'));
    return { status, body, ...(status === 429 && Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterSeconds: retryAfter } : {}) };
  }
}
