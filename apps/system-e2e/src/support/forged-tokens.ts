import { createHmac, randomUUID } from 'node:crypto';
import { importJWK, SignJWT } from 'jose';
import { generateSigningKey, loadOrCreateSigningKeys, publicJwks, signAccessToken } from '@medfolio/security';

const b64url = (value: object | string) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/**
 * Tokens an attacker might try, each claiming to be `subject` (a victim's user id) in the victim's
 * sign-in `sid` (else a random one), each of which the gateway must refuse with 401.
 */
export async function forgedTokens(dataDir: string, subject = 'victim', sid: string = randomUUID()): Promise<Record<string, string>> {
  const ring = await loadOrCreateSigningKeys(dataDir);
  const good = await signAccessToken(ring.current, { sub: subject, roles: ['patient'], sid });
  const [header, payload, signature] = good.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  const now = Math.floor(Date.now() / 1000);
  const sign = async (extra: Record<string, unknown>, key = ring.current) => {
    const privateKey = await importJWK(key.privateJwk, 'ES256');
    const jwt = new SignJWT({ roles: ['patient'], token_use: 'access', sid, ...extra })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid })
      .setSubject(subject)
      .setIssuer((extra['iss'] as string) ?? 'medfolio-identity')
      .setAudience((extra['aud'] as string) ?? 'medfolio-api')
      .setIssuedAt((extra['iat'] as number) ?? now);
    // exp: null leaves the claim out (a token that never expires).
    if (extra['exp'] !== null) jwt.setExpirationTime((extra['exp'] as number) ?? now + 900);
    return jwt.sign(privateKey);
  };
  // HS256 "signed" with the server's PUBLIC key as the HMAC secret (algorithm confusion).
  const publicKeyText = JSON.stringify(publicJwks(ring).keys[0]);
  const hsHeader = b64url({ alg: 'HS256', kid: ring.current.kid, typ: 'JWT' });
  const hsSignature = createHmac('sha256', publicKeyText).update(`${hsHeader}.${payload}`).digest('base64url');
  return {
    'alg none': `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.`,
    'HS256 with the public key as secret': `${hsHeader}.${payload}.${hsSignature}`,
    'tampered payload': `${header}.${b64url({ ...claims, sub: 'someone-else' })}.${signature}`,
    'signature removed': `${header}.${payload}.`,
    expired: await sign({ iat: now - 3600, exp: now - 60 }),
    'wrong issuer': await sign({ iss: 'evil-issuer' }),
    'wrong audience': await sign({ aud: 'another-api' }),
    'refresh token used as access token': await sign({ token_use: 'refresh' }),
    'key not in the JWKS': await sign({}, await generateSigningKey()),
    'no sid (names no sign-in that could be revoked)': await sign({ sid: undefined }),
    'no exp (never expires)': await sign({ exp: null }),
    'lifetime over an hour': await sign({ iat: now, exp: now + 7200 }),
    garbage: 'not.a.token',
  };
}
