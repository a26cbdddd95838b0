import { type LookupAddress, lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { ConnectionsConfig } from '../config';

/** A SMART Health Link's server answered: its status, content type and body (bounded). */
export interface ShlAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** Why a link's address was not contacted or gave nothing: the receiver turns each into a plain message. */
export class ShlFetchError extends Error {
  constructor(
    readonly reason: 'refused-address' | 'unreachable' | 'too-large',
    detail: string,
  ) {
    super(detail);
  }
}

/** The addresses a link may never reach: private, loopback, link-local, shared, multicast, reserved (IPv4 and IPv6). */
const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NOT_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], ['::1', 128], ['::ffff:0:0', 96], ['64:ff9b::', 96], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) NOT_PUBLIC.addSubnet(net, bits, 'ipv6');
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * The only I/O of the SMART Health Link receiver: GETs and POSTs to the addresses a link names. A
 * link is user input, so every request is held to the service's SSRF rules, stricter than for
 * directory endpoints: https only (http only to loopback, and loopback at all, only with
 * SMART_ALLOW_LOOPBACK_HTTP, for tests); the host's addresses are checked when the socket connects
 * (so a name that resolves to a private, loopback or link-local address is refused even if it changes
 * between look-ups); no redirect followed; a time-out (SMART_HTTP_TIMEOUT_MS) and a size cap on
 * every answer.
 */
@Injectable()
export class ShlFetchRepository {
  constructor(@Inject(ConnectionsConfig) private readonly config: ConnectionsConfig) {}

  /** Throws ShlFetchError('refused-address') unless the URL may be contacted (before any I/O). */
  checkUrl(text: string): URL {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new ShlFetchError('refused-address', 'not a URL');
    }
    if (url.username || url.password) throw new ShlFetchError('refused-address', 'credentials in the URL');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const literal = isIP(host);
    const loopbackName = host === 'localhost' || (literal !== 0 && LOOPBACK.check(host, literal === 6 ? 'ipv6' : 'ipv4'));
    if (url.protocol === 'https:') {
      if (literal !== 0 && !this.allowed(host, literal === 6 ? 'ipv6' : 'ipv4')) throw new ShlFetchError('refused-address', 'not a public address');
      return url;
    }
    if (url.protocol === 'http:' && loopbackName && this.config.allowLoopbackHttp) return url;
    throw new ShlFetchError('refused-address', 'not https');
  }

  async get(target: string, limit: number, accept = 'application/json'): Promise<ShlAnswer> {
    return this.request(target, 'GET', undefined, limit, accept);
  }

  async postJson(target: string, body: unknown, limit: number): Promise<ShlAnswer> {
    return this.request(target, 'POST', JSON.stringify(body), limit, 'application/json');
  }

  private allowed(address: string, family: 'ipv4' | 'ipv6'): boolean {
    if (!NOT_PUBLIC.check(address, family)) return true;
    return this.config.allowLoopbackHttp && LOOPBACK.check(address, family);
  }

  private request(target: string, method: 'GET' | 'POST', body: string | undefined, limit: number, accept: string): Promise<ShlAnswer> {
    const url = this.checkUrl(target);
    const client = url.protocol === 'https:' ? https : http;
    // Every address the name resolves to is checked as the socket connects (no look-up, check, then a second look-up).
    const lookup = (hostname: string, options: object, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
      dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, '');
        const list = addresses as LookupAddress[];
        const refused = list.find((a) => !this.allowed(a.address, a.family === 6 ? 'ipv6' : 'ipv4'));
        const [first] = list;
        if (refused || !first) return callback(Object.assign(new Error('not a public address'), { code: 'SHL_REFUSED_ADDRESS' }), '');
        if ((options as { all?: boolean }).all) return callback(null, list);
        return callback(null, first.address, first.family);
      });
    };
    return new Promise<ShlAnswer>((resolve, reject) => {
      const headers: Record<string, string> = { Accept: accept, 'User-Agent': 'Medfolio SHL receiver' };
      if (body !== undefined) {
        headers['Content-Type'] = 'application/json';
        headers['Content-Length'] = String(Buffer.byteLength(body));
      }
      const req = client.request(url, { method, headers, lookup, timeout: this.config.httpTimeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limit) {
            req.destroy();
            reject(new ShlFetchError('too-large', `an answer is larger than ${limit} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (error) => reject(new ShlFetchError('unreachable', error.name)));
      });
      req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
      req.on('error', (error: NodeJS.ErrnoException) => {
        reject(error.code === 'SHL_REFUSED_ADDRESS' ? new ShlFetchError('refused-address', 'not a public address') : new ShlFetchError('unreachable', error.code ?? error.name));
      });
      const total = setTimeout(() => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })), this.config.httpTimeoutMs);
      req.on('close', () => clearTimeout(total));
      if (body !== undefined) req.write(body);
      req.end();
    });
  }
}
