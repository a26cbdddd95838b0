import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { Envelope, gcmLegacyOpener, keyFingerprint, parseEnvelopeKeys, readOrCreateSecretFile, type EnvelopeKey } from '@medfolio/security';
import type { SummaryConfig } from '../config';

/** A new share id: 128 bits from the CSPRNG, base64url (22 characters). */
export function newShareId(): string {
  return randomBytes(16).toString('base64url');
}

/** What a share id is looked up by (and what logs may show). */
export function shareHash(shareId: string): string {
  return createHash('sha256').update(shareId, 'utf8').digest('hex');
}

/**
 * The sharing secrets of the summary service, from its own key (SHARE_LINK_KEY, held by no other
 * service): share ids, owners' e-mail addresses and SMART Health Link keys sealed at rest in the
 * shared envelope (libs/security: version, key id, AES-256-GCM, bound to the row and field), and
 * passcode links' view tokens (HMAC-SHA256, bound to the link and its passcode version).
 *
 * The key may be a list, current first: values and tokens are made with the first,
 * and open or check with any, so the key can rotate. Values sealed before the envelope (IV | tag |
 * ciphertext, no key id) still open, and the summary's migrations seal them again.
 */
export class ShareLinkKeys {
  private readonly envelope: Envelope;
  private readonly tokenKeys: Buffer[];

  /** One 32-byte key (its id is its fingerprint), or the list, current first. */
  constructor(masters: Buffer | EnvelopeKey[]) {
    const list = Buffer.isBuffer(masters) ? [{ id: keyFingerprint(masters), key: masters }] : masters;
    if (list.length === 0 || list.some((m) => m.key.length !== 32)) throw new Error('The share link key must be 32 bytes');
    const derive = (master: Buffer, info: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32));
    const sealKeys = list.map((m) => ({ id: m.id, key: derive(m.key, 'medfolio share links seal v1') }));
    this.envelope = new Envelope(sealKeys, [gcmLegacyOpener(sealKeys.map((k) => k.key))]);
    this.tokenKeys = list.map((m) => derive(m.key, 'medfolio share links view token v1'));
  }

  seal(value: string, context: string): Buffer {
    return this.envelope.seal(value, context);
  }

  /** Throws if the value was altered, moved from another row, or sealed with a key not given. */
  open(sealed: Buffer, context: string): string {
    return this.envelope.openString(sealed, context);
  }

  /** True for a value sealed before the envelope or with a key other than the current one. */
  needsResealing(sealed: Buffer): boolean {
    return this.envelope.needsResealing(sealed);
  }

  /** `<expiry seconds>.<mac>`: opens only the link `linkId` while its passcode stays the same (`passcodeHash`). */
  viewToken(linkId: string, passcodeHash: string, expiresAt: Date): string {
    const exp = Math.floor(expiresAt.getTime() / 1000);
    return `${exp}.${this.mac(this.tokenKeys[0]!, linkId, passcodeHash, exp)}`;
  }

  checkViewToken(token: string, linkId: string, passcodeHash: string, now = new Date()): boolean {
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return false;
    const exp = Number(match[1]);
    if (exp * 1000 <= now.getTime()) return false;
    const given = Buffer.from(match[2] ?? '');
    return this.tokenKeys.some((key) => {
      const expected = Buffer.from(this.mac(key, linkId, passcodeHash, exp));
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
  }

  private mac(key: Buffer, linkId: string, passcodeHash: string, exp: number): string {
    return createHmac('sha256', key).update(`${linkId}\u0000${passcodeHash}\u0000${exp}`).digest('base64url');
  }
}

export const SEAL_CONTEXT = {
  shareId: (linkId: string) => `share_links.share_sealed:${linkId}`,
  email: (linkId: string) => `share_links.notify_email_sealed:${linkId}`,
  shlKey: (linkId: string) => `share_links.shl_key_sealed:${linkId}`,
};

/**
 * SHARE_LINK_KEY when set; required in service mode (it is no longer derived from
 * INTERNAL_API_TOKEN, which every service holds, so only the summary service can open share links'
 * secrets). In embedded mode, unset, generated once into DATA_DIR/keys/share-links.key.
 */
export async function loadShareLinkKeys(config: Pick<SummaryConfig, 'shareLinkKey' | 'mode' | 'dataDir'>): Promise<ShareLinkKeys> {
  if (config.shareLinkKey) return new ShareLinkKeys(parseEnvelopeKeys(config.shareLinkKey, 'SHARE_LINK_KEY'));
  if (config.mode === 'service') throw new Error('SHARE_LINK_KEY is required in service mode: 32 random bytes in base64 (openssl rand -base64 32)');
  const text = await readOrCreateSecretFile(path.resolve(config.dataDir, 'keys', 'share-links.key'), () => `${randomBytes(32).toString('base64')}\n`);
  return new ShareLinkKeys(Buffer.from(text.trim(), 'base64'));
}
