// A clinic's SMART Health Link server for tests, made with an SHL library independent of the
// product (`kill-the-clipboard`): it makes the links (SHL.generate), their manifests and encrypted
// files (SHLManifestBuilder) and SMART Health Cards (SHCIssuer, ES256), and serves them over a real
// local HTTP server with the protocol's answers: a manifest POST checked for the passcode (401 with
// `remainingAttempts`, the link locked after the last one), file locations, U-flag direct files
// (GET with `recipient`), 404 once a link is revoked, and each issuer's `/.well-known/jwks.json`.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

// Loaded when first used: only the tests that make links pay for it.
const ktc = () => import('kill-the-clipboard');
type Ktc = Awaited<ReturnType<typeof ktc>>;

export type ShlSenderFile = { fhir: Record<string, unknown> } | { card: string };

export interface ShlSenderLinkOptions {
  files: ShlSenderFile[];
  label?: string;
  passcode?: string;
  /** Attempts before the link locks (with a passcode); default 3. */
  attempts?: number;
  /** The payload's expiry. */
  expiresAt?: Date;
  /** A U link: the one file answered straight to a GET of the link's URL. */
  directFile?: boolean;
  /** Files up to this many characters are embedded in the manifest, larger ones are locations (default: the receiver's `embeddedLengthMax`, else locations). */
  embeddedLengthMax?: number;
}

export interface ShlSenderLink {
  /** `shlink:/…` */
  shlink: string;
  /** The manifest's (or direct file's) URL. */
  url: string;
  key: string;
  /** Every manifest request's body, and every direct-file GET's `recipient`, in order. */
  requests: Record<string, unknown>[];
  /** The link answers 404 from now on. */
  revoke(): void;
}

export interface ShlSenderIssuer {
  /** The issuer URL (`iss`) the cards name. */
  iss: string;
  /** Issues a card (compact JWS, DEF-compressed payload, ES256) of the bundle. */
  issue(bundle: Record<string, unknown>): Promise<string>;
}

interface Served {
  kind: 'manifest' | 'direct';
  builder: InstanceType<Ktc['SHLManifestBuilder']>;
  passcode?: string;
  attemptsLeft: number;
  embeddedLengthMax?: number;
  revoked: boolean;
  requests: Record<string, unknown>[];
}

export class ShlSender {
  private readonly links = new Map<string, Served>();
  private readonly files = new Map<string, string>();
  private readonly jwks = new Map<string, { keys: JWK[] }>();

  private constructor(
    private readonly server: Server,
    /** http://127.0.0.1:<port> */
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<ShlSender> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const sender = new ShlSender(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void sender.handle(req, res).catch(() => send(res, 500, 'text/plain', 'error')));
    return sender;
  }

  /**
   * A card issuer: an ES256 key pair; `served` (default true) publishes its JWK Set at
   * `<iss>/.well-known/jwks.json` here. Not served: `iss` names a port nothing listens on.
   */
  async issuer(name: string, options: { served?: boolean } = {}): Promise<ShlSenderIssuer> {
    const { SHCIssuer, deriveKidFromPublicKey } = await ktc();
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const privateJwk = await exportJWK(privateKey);
    let iss: string;
    if (options.served ?? true) {
      iss = `${this.baseUrl}/issuers/${encodeURIComponent(name)}`;
      const kid = await deriveKidFromPublicKey(publicJwk as never);
      this.jwks.set(`/issuers/${encodeURIComponent(name)}/.well-known/jwks.json`, { keys: [{ ...publicJwk, kid, alg: 'ES256', use: 'sig' }] });
    } else {
      iss = `http://127.0.0.1:${await closedPort()}/issuers/${encodeURIComponent(name)}`;
    }
    const issuer = new SHCIssuer({ issuer: iss, privateKey: privateJwk as never, publicKey: publicJwk as never });
    return { iss, issue: async (bundle) => (await issuer.issue(bundle as never)).asJWS() };
  }

  /** A link holding `files`, served here; the link's `shlink:/…`. */
  async link(options: ShlSenderLinkOptions): Promise<ShlSenderLink> {
    const { SHL, SHLManifestBuilder } = await ktc();
    const id = randomUUID();
    const flag = options.directFile ? 'U' : options.passcode !== undefined ? 'P' : undefined;
    const shl = SHL.generate({
      baseManifestURL: `${this.baseUrl}/links/${id}`,
      manifestPath: '/manifest.json',
      ...(flag ? { flag } : {}),
      ...(options.label ? { label: options.label } : {}),
      ...(options.expiresAt ? { expirationDate: options.expiresAt } : {}),
    });
    const builder = new SHLManifestBuilder({
      shl,
      uploadFile: async (content) => {
        const path = randomUUID();
        this.files.set(path, content);
        return path;
      },
      getFileURL: async (path) => `${this.baseUrl}/files/${path}`,
      loadFile: async (path) => this.files.get(path) ?? '',
    });
    for (const file of options.files) {
      if ('fhir' in file) await builder.addFHIRResource({ content: file.fhir as never });
      else await builder.addHealthCard({ shc: file.card });
    }
    const served: Served = {
      kind: options.directFile ? 'direct' : 'manifest',
      builder,
      ...(options.passcode !== undefined ? { passcode: options.passcode } : {}),
      attemptsLeft: options.attempts ?? 3,
      ...(options.embeddedLengthMax !== undefined ? { embeddedLengthMax: options.embeddedLengthMax } : {}),
      revoked: false,
      requests: [],
    };
    this.links.set(new URL(shl.url).pathname, served);
    return { shlink: shl.toURI(), url: shl.url, key: shl.key, requests: served.requests, revoke: () => void (served.revoked = true) };
  }

  /** A link's `shlink:/…` with its payload changed (another key, an expiry…), pointing at the same server. */
  static rewrite(shlink: string, change: Record<string, unknown>): string {
    const payload = JSON.parse(Buffer.from(shlink.slice('shlink:/'.length), 'base64url').toString('utf8')) as Record<string, unknown>;
    return `shlink:/${Buffer.from(JSON.stringify({ ...payload, ...change }), 'utf8').toString('base64url')}`;
  }

  /** Serves an answer of the caller's own at `path` (a manifest with a damaged file, …); answers its URL. */
  serve(path: string, answer: { status: number; contentType: string; body: string }): string {
    this.fixed.set(path, answer);
    return `${this.baseUrl}${path}`;
  }

  private readonly fixed = new Map<string, { status: number; contentType: string; body: string }>();

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const fixed = this.fixed.get(url.pathname);
    if (fixed) return send(res, fixed.status, fixed.contentType, fixed.body);
    const keys = this.jwks.get(url.pathname);
    if (keys && req.method === 'GET') return send(res, 200, 'application/json', JSON.stringify(keys));
    if (url.pathname.startsWith('/files/') && req.method === 'GET') {
      const file = this.files.get(url.pathname.slice('/files/'.length));
      return file ? send(res, 200, 'application/jose', file) : send(res, 404, 'text/plain', 'no such file');
    }
    const link = this.links.get(url.pathname);
    if (!link || link.revoked) return send(res, 404, 'application/json', JSON.stringify({ error: 'no such link' }));
    if (link.kind === 'direct') {
      if (req.method !== 'GET') return send(res, 405, 'text/plain', 'GET only');
      link.requests.push({ recipient: url.searchParams.get('recipient') });
      const first = link.builder.files[0];
      return send(res, 200, 'application/jose', (first && this.files.get(first.storagePath)) ?? '');
    }
    if (req.method !== 'POST') return send(res, 405, 'text/plain', 'POST only');
    const body = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
    link.requests.push(body);
    if (typeof body['recipient'] !== 'string' || !body['recipient']) return send(res, 400, 'application/json', JSON.stringify({ error: 'recipient is required' }));
    if (link.passcode !== undefined) {
      if (link.attemptsLeft <= 0) return send(res, 404, 'application/json', JSON.stringify({ error: 'locked' }));
      if (body['passcode'] !== link.passcode) {
        if (body['passcode'] !== undefined) link.attemptsLeft -= 1;
        return send(res, 401, 'application/json', JSON.stringify({ remainingAttempts: link.attemptsLeft }));
      }
    }
    const embeddedLengthMax = link.embeddedLengthMax ?? (typeof body['embeddedLengthMax'] === 'number' ? body['embeddedLengthMax'] : 0);
    const manifest = await link.builder.buildManifest({ embeddedLengthMax });
    return send(res, 200, 'application/json', JSON.stringify(manifest));
  }
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'Content-Type': contentType });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
