// The pass's `signature` file: a detached CMS (PKCS #7) SignedData over manifest.json, written here in
// DER with Node's crypto rather than by passkit-generator (node-forge), which digests with SHA-1 and
// writes the signed attributes in the order given instead of DER's SET OF order (RFC 5652 5.4: the
// signature covers the DER encoding of the attributes, so a strict verifier re-sorts and fails).
//
// What Wallet asks of it (Apple's "Building a pass"): detached, signed with the pass type ID
// certificate's key, that certificate and Apple's WWDR intermediate included, signed attributes with
// the content type, the message digest and a signing time. SHA-256 is the digest (SHA-1 is refused by
// strict verifiers); manifest.json itself keeps SHA-1 hashes of the files, as Apple's format defines.
import { createHash, createPrivateKey, sign, X509Certificate, type KeyObject } from 'node:crypto';

/** Bumped when the signature's format changes, so passes signed the old way are signed again. */
export const PASS_SIGNATURE_FORMAT = 'cms-sha256-der-1';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
} as const;

// --- DER writing (X.690 10) ---

function lengthBytes(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), lengthBytes(body.length), body]);
}

const sequence = (...items: Buffer[]) => tlv(0x30, ...items);
/** SET OF in DER: the elements' encodings in ascending order (X.690 11.6). */
const setOf = (...items: Buffer[]) => tlv(0x31, ...[...items].sort(Buffer.compare));
const octetString = (bytes: Buffer) => tlv(0x04, bytes);
const NULL = Buffer.from([0x05, 0x00]);

function integer(value: number): Buffer {
  return tlv(0x02, Buffer.from([value]));
}

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes: number[] = [first * 40 + second];
  for (const arc of rest) {
    const chunk: number[] = [arc & 0x7f];
    for (let n = Math.floor(arc / 128); n > 0; n = Math.floor(n / 128)) chunk.unshift(0x80 | (n & 0x7f));
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime for 1950-2049, GeneralizedTime otherwise (RFC 5652 11.3), both in Z to the second. */
function time(date: Date): Buffer {
  const iso = date.toISOString();
  const digits = iso.slice(0, 19).replace(/[-:T]/g, '');
  const year = date.getUTCFullYear();
  return year >= 1950 && year < 2050 ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`, 'latin1')) : tlv(0x18, Buffer.from(`${digits}Z`, 'latin1'));
}

const algorithm = (dotted: string, params?: Buffer) => sequence(oid(dotted), ...(params ? [params] : []));
const attribute = (type: string, value: Buffer) => sequence(oid(type), setOf(value));

// --- DER reading, only as far as a certificate's issuer and serial number ---

interface Element {
  tag: number;
  /** The whole element, header included. */
  raw: Buffer;
  content: Buffer;
}

function readElement(bytes: Buffer, offset: number): Element {
  const tag = bytes[offset];
  let length = bytes[offset + 1];
  if (tag === undefined || length === undefined) throw new Error('certificate: truncated DER');
  let header = 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4) throw new Error('certificate: unsupported DER length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (bytes[offset + 2 + i] ?? 0);
    header += count;
  }
  const end = offset + header + length;
  if (end > bytes.length) throw new Error('certificate: truncated DER');
  return { tag, raw: bytes.subarray(offset, end), content: bytes.subarray(offset + header, end) };
}

function children(element: Element): Element[] {
  const out: Element[] = [];
  for (let offset = 0; offset < element.content.length; ) {
    const child = readElement(element.content, offset);
    out.push(child);
    offset += child.raw.length;
  }
  return out;
}

/** IssuerAndSerialNumber from the certificate's own bytes (never re-encoded, so it matches exactly). */
function issuerAndSerial(certificateDer: Buffer): Buffer {
  const [tbs] = children(readElement(certificateDer, 0));
  if (!tbs) throw new Error('certificate: no TBSCertificate');
  const fields = children(tbs);
  const rest = fields[0]?.tag === 0xa0 ? fields.slice(1) : fields; // [0] version, when present
  const [serial, , issuer] = rest;
  if (serial?.tag !== 0x02 || issuer?.tag !== 0x30) throw new Error('certificate: unexpected TBSCertificate layout');
  return sequence(issuer.raw, serial.raw);
}

function certificatesOf(pem: string): Buffer[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('no certificate in the PEM text');
  return blocks.map((block) => Buffer.from(new X509Certificate(block).raw));
}

function signatureAlgorithm(key: KeyObject): Buffer {
  if (key.asymmetricKeyType === 'rsa') return algorithm(OID.rsaEncryption, NULL);
  if (key.asymmetricKeyType === 'ec') return algorithm(OID.ecdsaWithSha256);
  throw new Error(`pass signing key: ${key.asymmetricKeyType ?? 'unknown'} keys are not supported (RSA or EC)`);
}

export interface PassSignatureInput {
  /** The bytes of manifest.json, exactly as put in the pass. */
  manifest: Buffer;
  /** PEM: the pass type ID certificate. */
  signerCert: string;
  /** PEM: its private key (PKCS #1, PKCS #8 or SEC 1; encrypted with the passphrase when given). */
  signerKey: string;
  signerKeyPassphrase?: string;
  /** PEM: Apple's WWDR intermediate (one or more certificates). */
  wwdr: string;
  signingTime?: Date;
}

/** The DER bytes of the detached SignedData (ContentInfo) for manifest.json. */
export function signManifest(input: PassSignatureInput): Buffer {
  const key = createPrivateKey(
    input.signerKeyPassphrase ? { key: input.signerKey, format: 'pem', passphrase: input.signerKeyPassphrase } : { key: input.signerKey, format: 'pem' },
  );
  const [signer, ...extra] = certificatesOf(input.signerCert);
  if (!signer) throw new Error('no signer certificate');
  const signerX509 = new X509Certificate(signer);
  if (!signerX509.checkPrivateKey(key)) throw new Error('the pass signing key does not belong to the signer certificate');
  const certificates = [signer, ...extra, ...certificatesOf(input.wwdr)];
  const digestAlgorithm = algorithm(OID.sha256);

  // The signed attributes: signed as a DER SET OF (tag 0x31), stored as [0] IMPLICIT (tag 0xa0).
  const signedAttrs = setOf(
    attribute(OID.contentType, oid(OID.data)),
    attribute(OID.signingTime, time(input.signingTime ?? new Date())),
    attribute(OID.messageDigest, octetString(createHash('sha256').update(input.manifest).digest())),
  );
  const signature = sign('sha256', signedAttrs, key);
  const signerInfo = sequence(
    integer(1),
    issuerAndSerial(signer),
    digestAlgorithm,
    Buffer.concat([Buffer.from([0xa0]), signedAttrs.subarray(1)]),
    signatureAlgorithm(key),
    octetString(signature),
  );
  const signedData = sequence(
    integer(1),
    setOf(digestAlgorithm),
    sequence(oid(OID.data)), // detached: no eContent
    tlv(0xa0, ...[...new Set(certificates.map((c) => c.toString('base64')))].map((c) => Buffer.from(c, 'base64')).sort(Buffer.compare)),
    setOf(signerInfo),
  );
  return sequence(oid(OID.signedData), tlv(0xa0, signedData));
}
