import { connect, constants, type ClientHttp2Session } from 'node:http2';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { importPKCS8, SignJWT } from 'jose';
import { WalletConfig } from '../config';

/** What APNs answered for one device token: 200 delivered; 410 the token is gone; else an error. */
export interface PushResult {
  status: number;
  reason?: string;
}

/** Apple accepts a provider token for up to an hour and refuses one renewed more often than every 20 minutes. */
const TOKEN_MAX_AGE_MS = 40 * 60 * 1000;

/**
 * Tells devices that a pass changed: APNs over HTTP/2 with token-based authentication (an ES256 JWT
 * signed with the .p8 key: kid = APNS_KEY_ID, iss = APNS_TEAM_ID), topic = the pass type id, and an
 * empty payload (Wallet then asks the web service what changed). Not configured: `enabled` is false
 * and devices see changes on their next fetch.
 */
@Injectable()
export class ApnsRepository implements OnModuleDestroy {
  private readonly logger = new Logger('WalletApns');
  private session?: ClientHttp2Session;
  private token?: { value: string; madeAt: number };

  constructor(@Inject(WalletConfig) private readonly config: WalletConfig) {}

  get enabled(): boolean {
    return Boolean(this.config.apnsKeyId && this.config.apnsTeamId && this.config.apnsKey);
  }

  /** Pushes to each device token; never throws for one device's failure (the result says it). */
  async notify(pushTokens: string[]): Promise<PushResult[]> {
    if (!this.enabled || pushTokens.length === 0) return [];
    const jwt = await this.providerToken();
    return Promise.all(pushTokens.map((token) => this.push(token, jwt).catch((error: Error): PushResult => ({ status: 0, reason: error.message }))));
  }

  onModuleDestroy(): void {
    this.session?.close();
  }

  private async providerToken(): Promise<string> {
    if (this.token && Date.now() - this.token.madeAt < TOKEN_MAX_AGE_MS) return this.token.value;
    const key = await importPKCS8(this.config.apnsKey!, 'ES256');
    const value = await new SignJWT({}).setProtectedHeader({ alg: 'ES256', kid: this.config.apnsKeyId! }).setIssuer(this.config.apnsTeamId!).setIssuedAt().sign(key);
    this.token = { value, madeAt: Date.now() };
    return value;
  }

  private connection(): ClientHttp2Session {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    const session = connect(this.config.apnsHost, this.config.apnsCa ? { ca: this.config.apnsCa } : {});
    session.on('error', (error) => this.logger.warn(`APNs connection: ${error.message}`));
    session.on('goaway', () => session.close());
    // Do not keep the process alive for an idle connection.
    session.unref();
    this.session = session;
    return session;
  }

  private push(deviceToken: string, jwt: string): Promise<PushResult> {
    return new Promise((resolve, reject) => {
      const request = this.connection().request({
        [constants.HTTP2_HEADER_METHOD]: 'POST',
        [constants.HTTP2_HEADER_PATH]: `/3/device/${encodeURIComponent(deviceToken)}`,
        authorization: `bearer ${jwt}`,
        'apns-topic': this.config.passTypeIdentifier,
        'apns-priority': '10',
        'content-type': 'application/json',
      });
      request.setTimeout(10_000, () => request.close(constants.NGHTTP2_CANCEL));
      let status = 0;
      let body = '';
      request.on('response', (headers) => (status = Number(headers[constants.HTTP2_HEADER_STATUS])));
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        let reason: string | undefined;
        try {
          reason = body ? (JSON.parse(body) as { reason?: string }).reason : undefined;
        } catch {
          reason = undefined;
        }
        resolve(reason ? { status, reason } : { status });
      });
      request.on('error', reject);
      request.end('{}');
    });
  }
}
