import { signDownloadUrl, verifySignedUrl } from './signed-url';

const signingKey = 'signing-key-for-tests-0123456789abcdef';
const now = new Date('2025-03-01T12:00:00Z');
const expiresAt = new Date('2025-03-01T12:05:00Z');

function signed(overrides: { basePath?: string } = {}): string {
  return signDownloadUrl({
    key: 'patients/p-42/lab-report.pdf',
    expiresAt,
    filename: 'Lab report "March" é.pdf',
    contentType: 'application/pdf',
    signingKey,
    ...overrides,
  });
}

/** Rewrites one query parameter of a signed URL. */
function withParam(url: string, name: string, value: string): string {
  const parsed = new URL(url, 'http://x');
  parsed.searchParams.set(name, value);
  return `${parsed.pathname}?${parsed.searchParams.toString()}`;
}

describe('signed download URLs', () => {
  it('verifies a fresh URL and returns what the route needs to serve it', () => {
    expect(verifySignedUrl(signed(), { signingKey, now })).toEqual({
      valid: true,
      key: 'patients/p-42/lab-report.pdf',
      expiresAt,
      filename: 'Lab report "March" é.pdf',
      contentType: 'application/pdf',
    });
  });

  it('accepts the absolute form of the URL too', () => {
    expect(verifySignedUrl(`https://medfolio.example${signed()}`, { signingKey, now })).toMatchObject({ valid: true });
  });

  it('rejects the URL from its expiry second on', () => {
    expect(verifySignedUrl(signed(), { signingKey, now: new Date(expiresAt.getTime() - 1) })).toMatchObject({
      valid: true,
    });
    expect(verifySignedUrl(signed(), { signingKey, now: expiresAt })).toEqual({ valid: false, reason: 'expired' });
  });

  it.each([
    ['another key in the path', (url: string) => url.replace('p-42', 'p-43')],
    ['a later expiry', (url: string) => withParam(url, 'expires', String(expiresAt.getTime() / 1000 + 3600))],
    ['another filename', (url: string) => withParam(url, 'filename', 'evil.html')],
    ['another content type', (url: string) => withParam(url, 'type', 'text/html')],
    ['a removed content type', (url: string) => url.replace(/&type=[^&]*/, '')],
    ['a changed signature', (url: string) => withParam(url, 'signature', 'A'.repeat(43))],
  ])('rejects a URL with %s as a bad signature', (_name, tamper) => {
    expect(verifySignedUrl(tamper(signed()), { signingKey, now })).toEqual({ valid: false, reason: 'bad-signature' });
  });

  it('rejects a URL signed with another key', () => {
    const otherKey = `${signingKey}-other`;
    expect(verifySignedUrl(signed(), { signingKey: otherKey, now })).toEqual({ valid: false, reason: 'bad-signature' });
  });

  it.each([
    ['outside the base path', (url: string) => url.replace('/api/files/', '/api/other/')],
    ['without a signature', (url: string) => url.replace(/&signature=.*/, '')],
    ['with a non-numeric expiry', (url: string) => withParam(url, 'expires', 'soon')],
    ['with an unsafe key', (url: string) => url.replace('patients/', '..%2F')],
  ])('rejects a URL %s as malformed', (_name, damage) => {
    expect(verifySignedUrl(damage(signed()), { signingKey, now })).toEqual({ valid: false, reason: 'malformed' });
  });

  it('uses a configurable base path', () => {
    const url = signed({ basePath: '/downloads/' });
    expect(url.startsWith('/downloads/patients/')).toBe(true);
    expect(verifySignedUrl(url, { signingKey, now, basePath: '/downloads/' })).toMatchObject({ valid: true });
    expect(verifySignedUrl(url, { signingKey, now })).toEqual({ valid: false, reason: 'malformed' });
  });
});
