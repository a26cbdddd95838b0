import { type GoogleIdentity, GoogleSignInError } from './google-identity';
import { getGoogleJson } from './google-http';
import { identityFromGoogleClaims } from './google-profile';
import type { GoogleSignInSettings } from './google-sign-in-settings';

/**
 * Verifies an opaque Google OAuth access token (what the implicit/token flow of Google's JavaScript
 * library hands the browser). The token cannot be checked locally, so Google is asked:
 *
 * 1. tokeninfo: was it issued to one of OUR client ids? An access token is a bearer credential for
 *    whatever app it was issued to; without this check any other site the user signed in to with
 *    Google could replay its token here and log in as them.
 * 2. userinfo: whose is it (subject, verified e-mail, names)?
 */
export class AccessTokenVerifier {
  constructor(private readonly settings: GoogleSignInSettings) {}

  async verify(token: string): Promise<GoogleIdentity> {
    const issuedTo = this.settings.tokeninfoUrl
      ? await this.checkIssuedToUs(token, this.settings.tokeninfoUrl)
      : undefined;
    const { status, body } = await getGoogleJson(new URL(this.settings.userinfoUrl), {
      headers: { authorization: `Bearer ${token}` },
      timeoutMs: this.settings.timeoutMs,
    });
    // 401 is Google's answer to an unknown, expired or revoked token; any other failure (404: a wrong
    // URL in the configuration) is ours.
    if (body === undefined) {
      throw new GoogleSignInError([400, 401, 403].includes(status) ? 'rejected-by-google' : 'google-unreachable');
    }
    const identity = identityFromGoogleClaims(body);
    // Both answers must be about the same account (tokeninfo names the subject too).
    if (issuedTo?.subject !== undefined && issuedTo.subject !== identity.subject) {
      throw new GoogleSignInError('wrong-client');
    }
    return identity;
  }

  /** Asks tokeninfo about the token; refuses it unless its `aud` or `azp` is one of our client ids. */
  private async checkIssuedToUs(token: string, tokeninfoUrl: string): Promise<{ subject: string | undefined }> {
    const url = new URL(tokeninfoUrl);
    url.searchParams.set('access_token', token);
    const { status, body } = await getGoogleJson(url, { timeoutMs: this.settings.timeoutMs });
    // Google answers 400 "invalid_token" for unknown, revoked and expired tokens.
    if (body === undefined) {
      throw new GoogleSignInError(status >= 400 && status < 500 ? 'rejected-by-google' : 'google-unreachable');
    }
    const clients = [body['aud'], body['azp']];
    if (!clients.some((client) => typeof client === 'string' && this.settings.clientIds.includes(client))) {
      throw new GoogleSignInError('wrong-client');
    }
    const expiresIn = Number(body['expires_in']);
    if (body['expires_in'] !== undefined && !(expiresIn > 0)) throw new GoogleSignInError('expired');
    return { subject: typeof body['sub'] === 'string' ? body['sub'] : undefined };
  }
}
