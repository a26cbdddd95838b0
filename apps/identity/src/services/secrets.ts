import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** 256 random bits, URL-safe: refresh tokens and password reset tokens. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** High-entropy tokens are stored as SHA-256: a leaked table gives nothing usable. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A uniformly random 4-digit code, 0000 to 9999. */
export function otpCode(): string {
  return String(randomInt(0, 10_000)).padStart(4, '0');
}

/**
 * A 4-digit code has only 10,000 values, so a plain hash could be reversed by trying them all:
 * it is stored as an HMAC under a server secret, bound to the user.
 */
export function otpHash(secret: Buffer, userId: string, code: string): string {
  return createHmac('sha256', secret).update(`${userId}:${code}`).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
