import { Agent, request, type IncomingMessage } from 'node:http';
import { Agent as TlsAgent, request as requestTls } from 'node:https';
import { DomainError } from '@medfolio/contracts';

/** The response headers of a download passed back to the browser; the rest stay inside. */
const PASSED_HEADERS = ['content-type', 'content-length', 'content-disposition', 'cache-control', 'x-content-type-options'];
/** A download that moves no byte for this long is cut off. */
const IDLE_TIMEOUT_MS = 120_000;
/** Connections to the services are kept open: a thumbnail is a few KB, a new connection per file would cost more. */
const agents = { http: new Agent({ keepAlive: true }), https: new TlsAgent({ keepAlive: true }) };

export interface ForwardedDownload {
  status: number;
  headers: Record<string, string>;
  /** The body as it arrives; it errors if the service cuts the download off. */
  body: IncomingMessage;
}

/**
 * GETs a download from the internal HTTP endpoint of the service that owns the file and answers its
 * status, the headers a browser needs, and the body as a stream to pipe on. Fails with DomainError
 * UNAVAILABLE when the service cannot be reached.
 */
export function forwardDownload(target: URL, headers: Record<string, string>): Promise<ForwardedDownload> {
  return new Promise<ForwardedDownload>((resolve, reject) => {
    const tls = target.protocol === 'https:';
    const upstream = (tls ? requestTls : request)(target, { method: 'GET', headers, agent: tls ? agents.https : agents.http });
    upstream.setTimeout(IDLE_TIMEOUT_MS, () => upstream.destroy(new Error('idle')));
    upstream.on('error', () => reject(new DomainError('UNAVAILABLE', 'The file could not be fetched; please try again shortly.')));
    upstream.on('response', (response) => {
      const passed: Record<string, string> = {};
      for (const name of PASSED_HEADERS) {
        const value = response.headers[name];
        if (typeof value === 'string') passed[name] = value;
      }
      resolve({ status: response.statusCode ?? 502, headers: passed, body: response });
    });
    upstream.end();
  });
}
