import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { SignJWT } from 'jose';
import type { JwksReply } from '@medfolio/contracts';
import type { ClientKeys } from '../repositories/client-keys';
import { type ClientRegistration, ClientRegistrationsRepository, RegistrationsError } from '../repositories/client-registrations.repository';

/** The provider token of the loaded client keys (repositories/client-keys.ts). */
export const CLIENT_KEYS = Symbol('connections.client-keys');

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** SMART App Launch 2.2 (client-confidential-asymmetric): the assertion expires no more than five minutes after it is made. */
const ASSERTION_SECONDS = 300;

/**
 * How the product authenticates to an endpoint's token and revocation endpoints: the endpoint's
 * registration (SMART_CLIENT_REGISTRATIONS_FILE) or the default public client. A private_key_jwt
 * client adds a client assertion (RFC 7523; iss = sub = client_id, aud = the token endpoint, a fresh
 * jti, exp five minutes ahead) signed ES384 or RS384 with the key the product publishes as its JWKS.
 */
@Injectable()
export class ClientAuthService implements OnApplicationBootstrap {
  constructor(
    @Inject(ClientRegistrationsRepository) private readonly registrations: ClientRegistrationsRepository,
    @Inject(CLIENT_KEYS) private readonly keys: ClientKeys,
  ) {}

  onApplicationBootstrap(): void {
    if (this.registrations.usesPrivateKeyJwt() && !this.keys.signing) {
      throw new RegistrationsError('SMART_CLIENT_REGISTRATIONS_FILE names a private_key_jwt client, and no SMART_CLIENT_JWK is set to sign its assertions');
    }
  }

  /** The registration a new connection to this endpoint uses. */
  registrationFor(endpointId: string): ClientRegistration {
    return this.registrations.for(endpointId);
  }

  /**
   * The client authentication fields of a token or revocation request for a connection made with
   * `clientId` at `endpointId`: the endpoint's registration when it is still that client (a changed
   * registration leaves older connections public with their own client id).
   */
  async form(endpointId: string, clientId: string, tokenEndpoint: string): Promise<Record<string, string>> {
    const registration = this.registrations.for(endpointId);
    if (registration.client_id !== clientId || registration.auth !== 'private_key_jwt' || !this.keys.signing) return { client_id: clientId };
    const { key, alg, kid } = this.keys.signing;
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg, kid, typ: 'JWT' })
      .setIssuer(clientId)
      .setSubject(clientId)
      .setAudience(tokenEndpoint)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ASSERTION_SECONDS)
      .sign(key);
    return { client_id: clientId, client_assertion_type: ASSERTION_TYPE, client_assertion: assertion };
  }

  /** The public keys EHRs verify the assertions with (current first, the previous ones while rotating). */
  jwks(): JwksReply {
    return { keys: this.keys.published.map((jwk) => ({ ...jwk })) as JwksReply['keys'] };
  }
}
