import { Inject, Injectable } from '@nestjs/common';
import { DomainError, type CallerIdentity, type OidcLoginDto, type OidcProvidersReply, type TokenPair } from '@medfolio/contracts';
import { AuditRecorder } from '@medfolio/audit-client';
import { OutboxRelay } from '@medfolio/messaging/outbox';
import { OIDC_PROVIDERS, type OidcProviders } from '../oidc';
import { UsersRepository } from '../repositories/users.repository';
import { TokenService } from './token.service';
import { verifiedByProvider } from './session.service';

/**
 * Sign-in with a configured OpenID Connect provider (Apple, Microsoft, ...). The provider verified
 * the e-mail address: it signs in to the account with that address (and verifies it), or creates a
 * verified account, as Google sign-in does.
 */
@Injectable()
export class OidcSignInService {
  constructor(
    @Inject(OIDC_PROVIDERS) private readonly providers: OidcProviders,
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(TokenService) private readonly tokens: TokenService,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
  ) {}

  async list(): Promise<OidcProvidersReply> {
    const providers = await this.providers.list();
    return { providers: providers.map((p) => ({ name: p.name, label: p.label, authorization_url: p.authorizationUrl, client_id: p.clientId, scope: p.scope })) };
  }

  async signIn(caller: CallerIdentity, dto: OidcLoginDto): Promise<TokenPair> {
    const identity = await this.providers.signIn(dto.provider, { code: dto.code, codeVerifier: dto.code_verifier, nonce: dto.nonce, redirectUri: dto.redirect_uri });
    let user = await this.users.findByEmail(identity.email);
    if (user) {
      if (!user.emailVerified) await this.users.update(user.id, verifiedByProvider(user));
    } else {
      user = await this.users.create({
        email: identity.email,
        firstName: identity.givenName || identity.email.slice(0, identity.email.indexOf('@')),
        lastName: identity.familyName,
        phone: '',
        dateOfBirth: null,
        passwordHash: null,
        emailVerified: true,
        googleSubject: null,
      });
      if (!user) throw new DomainError('CONFLICT', 'This account could not be linked. Please try again.');
      this.relay.kick();
    }
    const pair = await this.tokens.startSession(user.id);
    await this.audit.record({ ...caller, userId: user.id, sessionId: pair.sessionId }, { action: 'login', entityType: 'session', entityId: pair.sessionId, patientId: user.id, outcome: 'success', policy: `oidc:${identity.provider}` });
    return { access: pair.access, refresh: pair.refresh };
  }
}
