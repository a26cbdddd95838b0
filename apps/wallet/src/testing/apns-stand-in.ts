import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createSecureServer, type Http2SecureServer, type IncomingHttpHeaders } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import forge from 'node-forge';

/** One push the stand-in received, with what it found wrong (empty: Apple would accept it). */
export interface ReceivedPush {
  deviceToken: string;
  topic: string | undefined;
  body: string;
  problems: string[];
}

/**
 * A local stand-in for APNs: HTTP/2 over TLS (a self-signed certificate for 127.0.0.1), checking
 * what Apple checks for token-based pushes: POST /3/device/<token>, `authorization: bearer <ES256
 * JWT>` signed by the .p8 key with kid = the key id and iss = the team id, and an apns-topic.
 * Answers 200, 410 (Unregistered) for tokens marked gone, 403 for a bad token.
 */
export class ApnsStandIn {
  readonly keyId = 'ABCDE12345';
  readonly teamId = 'TEAM123456';
  readonly pushes: ReceivedPush[] = [];
  readonly gone = new Set<string>();
  readonly privateKeyPem: string;
  readonly caPem: string;
  private readonly publicKey: KeyObject;
  private server?: Http2SecureServer;

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    this.publicKey = publicKey;
    const tls = selfSignedFor127();
    this.caPem = tls.cert;
    this.tls = tls;
  }

  private readonly tls: { cert: string; key: string };

  async start(): Promise<string> {
    const server = createSecureServer({ cert: this.tls.cert, key: this.tls.key });
    server.on('stream', (stream, headers) => {
      let body = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (body += chunk));
      stream.on('end', () => {
        void this.check(headers, body).then(({ status, push }) => {
          this.pushes.push(push);
          stream.respond({ ':status': status, 'content-type': 'application/json' });
          stream.end(status === 200 ? '' : JSON.stringify({ reason: status === 410 ? 'Unregistered' : 'InvalidProviderToken' }));
        });
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async check(headers: IncomingHttpHeaders, body: string): Promise<{ status: number; push: ReceivedPush }> {
    const problems: string[] = [];
    const path = String(headers[':path'] ?? '');
    const deviceToken = /^\/3\/device\/([A-Za-z0-9%_-]+)$/.exec(path)?.[1] ?? '';
    if (headers[':method'] !== 'POST') problems.push('method is not POST');
    if (!deviceToken) problems.push(`path ${path} is not /3/device/<token>`);
    const topic = headers['apns-topic'] as string | undefined;
    if (!topic) problems.push('no apns-topic');
    const bearer = /^bearer (\S+)$/.exec(String(headers['authorization'] ?? ''))?.[1];
    if (!bearer) problems.push('no bearer token');
    else {
      try {
        const header = decodeProtectedHeader(bearer);
        if (header.alg !== 'ES256' || header.kid !== this.keyId) problems.push('JWT header is not ES256 with the key id');
        const { payload } = await jwtVerify(bearer, this.publicKey, { issuer: this.teamId, algorithms: ['ES256'] });
        if (typeof payload.iat !== 'number') problems.push('JWT has no iat');
      } catch (error) {
        problems.push(`JWT: ${(error as Error).message}`);
      }
    }
    const push = { deviceToken: decodeURIComponent(deviceToken), topic, body, problems };
    const status = problems.length ? 403 : this.gone.has(push.deviceToken) ? 410 : 200;
    return { status, push };
  }
}

/** A self-signed TLS certificate for 127.0.0.1 (EC keys are not in node-forge: RSA). */
function selfSignedFor127(): { cert: string; key: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const key = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3600 * 1000);
  const subject = [{ name: 'commonName', value: '127.0.0.1' }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true },
    { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
  ]);
  cert.sign(key, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: keyPem };
}
