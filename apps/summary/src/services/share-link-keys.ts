import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { readOrCreateSecretFile } from '@medfolio/security';
import type { SummaryConfig } from '../config';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A new share id: 128 bits from the CSPRNG, base64url (22 characters). */
export function newShareId(): string {
  return randomBytes(16).toString('base64url');
}

/** What a share id is looked up by (and what logs may show). */
export function shareHash(shareId: string): string {
  return createHash('sha256').update(shareId, 'utf8').digest('hex');
}

/**
 * The sharing secrets of the summary service, from one 32-byte key: share ids and owners' e-mail
 * addresses sealed at rest (AES-256-GCM, bound to the row and field), and passcode links' view
 * tokens (HMAC-SHA256, bound to the link and its passcode version).
 */
export class ShareLinkKeys {
  private readonly sealKey: Buffer;
  private readonly tokenKey: Buffer;

  constructor(master: Buffer) {
    if (master.length !== 32) throw new Error('The share link key must be 32 bytes');
    this.sealKey = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'medfolio share links seal v1', 32));
    this.tokenKey = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'medfolio share links view token v1', 32));
  }

  seal(value: string, context: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  /** Throws if the value was altered, moved from another row, or sealed with another key. */
  open(sealed: Buffer, context: string): string {
    const decipher = createDecipheriv('aes-256-gcm', this.sealKey, sealed.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  /** `<expiry seconds>.<mac>`: opens only the link `linkId` while its passcode stays the same (`passcodeHash`). */
  viewToken(linkId: string, passcodeHash: string, expiresAt: Date): string {
    const exp = Math.floor(expiresAt.getTime() / 1000);
    return `${exp}.${this.mac(linkId, passcodeHash, exp)}`;
  }

  checkViewToken(token: string, linkId: string, passcodeHash: string, now = new Date()): boolean {
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return false;
    const exp = Number(match[1]);
    if (exp * 1000 <= now.getTime()) return false;
    const expected = Buffer.from(this.mac(linkId, passcodeHash, exp));
    const given = Buffer.from(match[2] ?? '');
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private mac(linkId: string, passcodeHash: string, exp: number): string {
    return createHmac('sha256', this.tokenKey).update(`${linkId}\u0000${passcodeHash}\u0000${exp}`).digest('base64url');
  }
}

export const SEAL_CONTEXT = {
  shareId: (linkId: string) => `share_links.share_sealed:${linkId}`,
  email: (linkId: string) => `share_links.notify_email_sealed:${linkId}`,
};

/**
 * SHARE_LINK_KEY when set; required in service mode (security 25.14: it is no longer derived from
 * INTERNAL_API_TOKEN, which every service holds, so only the summary service can open share links'
 * secrets). In embedded mode, unset, generated once into DATA_DIR/keys/share-links.key.
 */
export async function loadShareLinkKeys(config: Pick<SummaryConfig, 'shareLinkKey' | 'mode' | 'dataDir'>): Promise<ShareLinkKeys> {
  if (config.shareLinkKey) return new ShareLinkKeys(Buffer.from(config.shareLinkKey, 'base64'));
  if (config.mode === 'service') throw new Error('SHARE_LINK_KEY is required in service mode: 32 random bytes in base64 (openssl rand -base64 32)');
  const text = await readOrCreateSecretFile(path.resolve(config.dataDir, 'keys', 'share-links.key'), () => `${randomBytes(32).toString('base64')}\n`);
  return new ShareLinkKeys(Buffer.from(text.trim(), 'base64'));
}
