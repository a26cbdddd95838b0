import { type GoogleIdentity, GoogleSignInError } from './google-identity';

/**
 * Turns the claims of a verified ID token, or a userinfo answer (same OpenID Connect names), into a
 * {@link GoogleIdentity}. Accounts are linked by e-mail, so an address Google has not verified
 * would let anyone claim someone else's account: it is refused here, on both paths.
 */
export function identityFromGoogleClaims(claims: Readonly<Record<string, unknown>>): GoogleIdentity {
  const subject = claims['sub'];
  const email = claims['email'];
  if (!isNonEmptyString(subject) || !isNonEmptyString(email)) throw new GoogleSignInError('invalid-claims');
  // Google sends a boolean in ID tokens; some of its endpoints have sent the string "true".
  const verified = claims['email_verified'];
  if (verified !== true && verified !== 'true') throw new GoogleSignInError('email-not-verified');
  const identity: GoogleIdentity = {
    subject,
    email,
    emailVerified: true,
    givenName: stringOrEmpty(claims['given_name']),
    familyName: stringOrEmpty(claims['family_name']),
  };
  const picture = httpsUrl(claims['picture']);
  if (picture !== undefined) identity.picture = picture;
  return identity;
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function stringOrEmpty(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Only https URLs: the picture ends up in an <img src>, where other schemes have no business. */
function httpsUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || !URL.canParse(value)) return undefined;
  return new URL(value).protocol === 'https:' ? value : undefined;
}
