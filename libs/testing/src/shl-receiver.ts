// A SMART Health Link receiver written from the HL7 SMART Health Links spec (STU1), apart from the
// product's own SHL code: it decodes a `shlink:/` (alone or after '#' in a viewer URL), POSTs the
// manifest request, takes each file embedded or GETs its location, and decrypts the compact JWE with
// the payload's key. The HTTP exchange is passed in, so the same receiver runs over real HTTP
// (system tests) or straight to a service (integration tests).
import { compactDecrypt, decodeProtectedHeader } from 'jose';

export interface ShlReceiverPayload {
  url: string;
  key: string;
  exp?: number;
  flag?: string;
  label?: string;
  v?: number;
}

export interface ShlHttp {
  /** POST JSON; the status and the parsed JSON body. */
  postJson(url: string, body: unknown): Promise<{ status: number; body: unknown }>;
  /** GET; the status, the content type and the text body. */
  get(url: string): Promise<{ status: number; contentType: string; text: string }>;
}

export type ShlReceiveOutcome =
  | {
      ok: true;
      payload: ShlReceiverPayload;
      files: { contentType: string; cty: string | undefined; json: unknown; via: 'embedded' | 'location' }[];
    }
  | { ok: false; status: number; body: unknown; payload: ShlReceiverPayload };

/** Step 1: the payload from `shlink:/<base64url JSON>`, wherever it sits in the scanned text. */
export function decodeShlinkFromSpec(scanned: string): ShlReceiverPayload {
  const match = /(?:^|#)shlink:\/([A-Za-z0-9_-]+)$/.exec(scanned.trim());
  if (!match?.[1]) throw new Error('no shlink:/ in the scanned text');
  const payload = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8')) as ShlReceiverPayload;
  if (typeof payload.url !== 'string' || typeof payload.key !== 'string') throw new Error('payload without url or key');
  if (Buffer.from(payload.key, 'base64url').length !== 32 || payload.key.length !== 43)
    throw new Error('key is not 32 bytes base64url');
  if (payload.label !== undefined && [...payload.label].length > 80) throw new Error('label longer than 80 characters');
  if (payload.flag !== undefined && !/^[LPU]*$/.test(payload.flag)) throw new Error(`unknown flags ${payload.flag}`);
  return payload;
}

/** Steps 2-4: the manifest, the files, decrypted. A refused manifest or file comes back as it was answered. */
export async function receiveShl(
  scanned: string,
  http: ShlHttp,
  options: { recipient: string; passcode?: string; embeddedLengthMax?: number; now?: Date },
): Promise<ShlReceiveOutcome> {
  const payload = decodeShlinkFromSpec(scanned);
  if (payload.exp !== undefined && payload.exp * 1000 < (options.now ?? new Date()).getTime()) {
    return { ok: false, status: 0, body: 'expired by its exp', payload };
  }
  if (payload.flag?.includes('P') && options.passcode === undefined)
    return { ok: false, status: 0, body: 'needs a passcode', payload };
  const request: Record<string, unknown> = { recipient: options.recipient };
  if (options.passcode !== undefined) request['passcode'] = options.passcode;
  if (options.embeddedLengthMax !== undefined) request['embeddedLengthMax'] = options.embeddedLengthMax;
  const manifest = await http.postJson(payload.url, request);
  if (manifest.status !== 200) return { ok: false, status: manifest.status, body: manifest.body, payload };
  const files =
    (manifest.body as { files?: { contentType: string; embedded?: string; location?: string }[] }).files ?? [];
  const key = Buffer.from(payload.key, 'base64url');
  const out: Extract<ShlReceiveOutcome, { ok: true }>['files'] = [];
  for (const file of files) {
    let jwe = file.embedded;
    const via = jwe ? 'embedded' : 'location';
    if (!jwe && file.location) {
      const fetched = await http.get(file.location);
      if (fetched.status !== 200) return { ok: false, status: fetched.status, body: fetched.text, payload };
      jwe = fetched.text.trim();
    }
    if (!jwe) throw new Error('a file with neither embedded nor location');
    const header = decodeProtectedHeader(jwe);
    if (header.alg !== 'dir' || header.enc !== 'A256GCM')
      throw new Error(`unexpected JWE header ${JSON.stringify(header)}`);
    const { plaintext } = await compactDecrypt(jwe, key);
    out.push({
      contentType: file.contentType,
      cty: header.cty,
      json: JSON.parse(new TextDecoder().decode(plaintext)) as unknown,
      via,
    });
  }
  return { ok: true, payload, files: out };
}
