import { type GoogleIdentity, GoogleSignInError } from './google-identity';
import type { GoogleRepository } from '../repositories/google.repository';
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
  constructor(
    private readonly settings: GoogleSignInSettings,
    private readonly google: GoogleRepository,
  ) {}

  async verify(token: string): Promise<GoogleIdentity> {
    const issuedTo = await this.checkIssuedToUs(token);
    const { status, body } = await this.google.userInfo(token);
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

  /**
   * Asks tokeninfo about the token (when configured); refuses it unless its `aud` or `azp` is one of
   * our client ids.
   */
  private async checkIssuedToUs(token: string): Promise<{ subject: string | undefined } | undefined> {
    const answer = await this.google.tokenInfo(token);
    if (answer === undefined) return undefined;
    const { status, body } = answer;
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
