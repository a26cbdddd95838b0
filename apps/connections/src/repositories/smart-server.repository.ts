import { Inject, Injectable } from '@nestjs/common';
import { ConnectionsConfig } from '../config';

/** What the connector reads of `.well-known/smart-configuration` (SMART App Launch 2.2, section 2.1). */
export interface SmartConfiguration {
  authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint?: string;
  capabilities: string[];
  code_challenge_methods_supported: string[];
}

/** A token endpoint's answer: the fields kept (the JSON is not logged or stored as is). */
export interface TokenAnswer {
  access_token: string;
  token_type: string;
  expires_in?: number;
  scope?: string;
  refresh_token?: string;
  patient?: string;
}

/** The EHR answered, but not as asked: `status` and its OAuth `error` code (never the body). */
export class SmartServerRefusal extends Error {
  constructor(
    readonly status: number,
    readonly error: string | undefined,
  ) {
    super(`The server answered ${status}${error ? ` (${error})` : ''}`);
  }
}

/** The EHR could not be reached, timed out, or answered something that is not what the spec says. */
export class SmartServerUnavailable extends Error {}

const MAX_ANSWER_BYTES = 256 * 1024;

/**
 * The only I/O with EHRs' authorization servers: discovery, the code exchange, revocation. Every URL is
 * checked first (https, or http on loopback when SMART_ALLOW_LOOPBACK_HTTP), redirects are refused
 * (an endpoint cannot send us elsewhere), answers are bounded (256 KB) and time-limited (SMART_HTTP_TIMEOUT_MS).
 */
@Injectable()
export class SmartServerRepository {
  constructor(@Inject(ConnectionsConfig) private readonly config: ConnectionsConfig) {}

  async discover(fhirBaseUrl: string): Promise<SmartConfiguration> {
    const answer = await this.request(`${fhirBaseUrl}/.well-known/smart-configuration`, { headers: { Accept: 'application/json' } });
    if (answer.status !== 200 || !isObject(answer.body)) throw new SmartServerUnavailable(`discovery answered ${answer.status}`);
    const body = answer.body;
    const authorization = body['authorization_endpoint'];
    const token = body['token_endpoint'];
    if (typeof authorization !== 'string' || typeof token !== 'string') throw new SmartServerUnavailable('discovery names no authorization or token endpoint');
    this.checkUrl(authorization);
    this.checkUrl(token);
    const revocation = typeof body['revocation_endpoint'] === 'string' ? body['revocation_endpoint'] : undefined;
    if (revocation) this.checkUrl(revocation);
    return {
      authorization_endpoint: authorization,
      token_endpoint: token,
      ...(revocation ? { revocation_endpoint: revocation } : {}),
      capabilities: strings(body['capabilities']),
      code_challenge_methods_supported: strings(body['code_challenge_methods_supported']),
    };
  }

  /** POSTs the form to a token endpoint; answers the tokens, or throws SmartServerRefusal with the OAuth error. */
  async token(tokenEndpoint: string, form: Record<string, string>): Promise<TokenAnswer> {
    const answer = await this.request(tokenEndpoint, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' }, body: new URLSearchParams(form).toString() });
    if (answer.status !== 200) throw new SmartServerRefusal(answer.status, isObject(answer.body) && typeof answer.body['error'] === 'string' ? answer.body['error'].slice(0, 64) : undefined);
    const body = answer.body;
    if (!isObject(body) || typeof body['access_token'] !== 'string' || typeof body['token_type'] !== 'string') throw new SmartServerUnavailable('the token answer has no access_token or token_type');
    return {
      access_token: body['access_token'],
      token_type: body['token_type'],
      ...(typeof body['expires_in'] === 'number' ? { expires_in: body['expires_in'] } : {}),
      ...(typeof body['scope'] === 'string' ? { scope: body['scope'] } : {}),
      ...(typeof body['refresh_token'] === 'string' ? { refresh_token: body['refresh_token'] } : {}),
      ...(typeof body['patient'] === 'string' ? { patient: body['patient'] } : {}),
    };
  }

  /** RFC 7009 revocation: true when the server answered 200. Never throws (disconnecting goes on regardless). */
  async revoke(revocationEndpoint: string, form: Record<string, string>): Promise<boolean> {
    try {
      const answer = await this.request(revocationEndpoint, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
      return answer.status === 200;
    } catch {
      return false;
    }
  }

  /** Throws SmartServerUnavailable unless the URL is https (or loopback http when allowed). */
  checkUrl(text: string): URL {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new SmartServerUnavailable('an endpoint URL is not a URL');
    }
    if (url.protocol === 'https:') return url;
    const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
    if (url.protocol === 'http:' && loopback && this.config.allowLoopbackHttp) return url;
    throw new SmartServerUnavailable('an endpoint URL is not https');
  }

  private async request(target: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
    const { status, body } = await this.fetchJson(target, init, MAX_ANSWER_BYTES);
    return { status, body };
  }

  /**
   * One call to a directory endpoint: the URL checked (https, or loopback http when allowed), no
   * redirect followed, a time-out, the answer read up to `limit` bytes and parsed as JSON when it is
   * JSON (the body is undefined otherwise). The FHIR reads use it too, with their own limit.
   */
  async fetchJson(target: string, init: RequestInit, limit: number): Promise<{ status: number; body: unknown; headers: Headers }> {
    const url = this.checkUrl(target);
    let response: Response;
    try {
      response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(this.config.httpTimeoutMs) });
    } catch (error) {
      throw new SmartServerUnavailable(`the server could not be reached (${(error as Error).name})`);
    }
    const text = await readBounded(response, limit);
    let body: unknown = undefined;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    }
    return { status: response.status, body, headers: response.headers };
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

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
