import { Inject, Injectable } from '@nestjs/common';
import { DomainError, type CallerIdentity, type OidcLoginDto, type OidcProvidersReply, type TokenPair } from '@medfolio/contracts';
import { AuditRecorder } from '@medfolio/audit-client';
import { OutboxRelay } from '@medfolio/messaging/outbox';
import { OIDC_PROVIDERS, type OidcIdentity, type OidcProviders } from '../oidc';
import type { User } from '../entities';
import { ProviderAccountsRepository } from '../repositories/provider-accounts.repository';
import { UsersRepository } from '../repositories/users.repository';
import { TokenService } from './token.service';
import { verifiedByProvider } from './session.service';

export const OIDC_SIGN_IN_MESSAGES = {
  notLinked: 'This account could not be linked. Please try again.',
  otherAccountLinked: 'The account with this e-mail address signs in with another account of this provider. Sign in with that one, or with your password.',
} as const;

/**
 * Sign-in with a configured OpenID Connect provider (Apple, Microsoft, ...). A provider account
 * (issuer and subject of its ID token) signs in to the user it is linked to, whatever its e-mail
 * address says now. A provider account not seen before is linked by its verified e-mail address:
 * to the account with that address (verifying it) unless that account already has another account
 * of this provider, or else to a new verified account.
 */
@Injectable()
export class OidcSignInService {
  constructor(
    @Inject(OIDC_PROVIDERS) private readonly providers: OidcProviders,
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(ProviderAccountsRepository) private readonly accounts: ProviderAccountsRepository,
    @Inject(TokenService) private readonly tokens: TokenService,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
  ) {}

  async list(): Promise<OidcProvidersReply> {
    const providers = await this.providers.list();
    return { providers: providers.map((p) => ({ name: p.name, label: p.label, authorization_url: p.authorizationUrl, client_id: p.clientId, scope: p.scope, response_mode: p.responseMode })) };
  }

  async signIn(caller: CallerIdentity, dto: OidcLoginDto): Promise<TokenPair> {
    const identity = await this.providers.signIn(dto.provider, { code: dto.code, codeVerifier: dto.code_verifier, nonce: dto.nonce, redirectUri: dto.redirect_uri });
    const user = (await this.accounts.findUser(identity.issuer, identity.subject)) ?? (await this.link(identity));
    const pair = await this.tokens.startSession(user.id);
    await this.audit.record({ ...caller, userId: user.id, sessionId: pair.sessionId }, { action: 'login', entityType: 'session', entityId: pair.sessionId, patientId: user.id, outcome: 'success', policy: `oidc:${identity.provider}` });
    return { access: pair.access, refresh: pair.refresh };
  }

  /** A provider account not seen before: linked by its verified e-mail address, to that account or a new one. */
  private async link(identity: OidcIdentity): Promise<User> {
    const link = { issuer: identity.issuer, subject: identity.subject, provider: identity.provider };
    const existing = await this.users.findByEmail(identity.email);
    if (existing) {
      if (await this.accounts.findByUser(existing.id, identity.provider)) throw new DomainError('CONFLICT', OIDC_SIGN_IN_MESSAGES.otherAccountLinked);
      await this.users.transaction(async (manager) => {
        if (!(await this.accounts.link({ ...link, userId: existing.id }, manager))) throw new DomainError('CONFLICT', OIDC_SIGN_IN_MESSAGES.notLinked);
        if (!existing.emailVerified) await this.users.update(existing.id, verifiedByProvider(existing), manager);
      });
      return existing;
    }
    const created = await this.users.create(
      {
        email: identity.email,
        firstName: identity.givenName || identity.email.slice(0, identity.email.indexOf('@')),
        lastName: identity.familyName,
        phone: '',
        dateOfBirth: null,
        passwordHash: null,
        emailVerified: true,
        googleSubject: null,
      },
      async (manager, user) => {
        if (!(await this.accounts.link({ ...link, userId: user.id }, manager))) throw new DomainError('CONFLICT', OIDC_SIGN_IN_MESSAGES.notLinked);
      },
    );
    if (!created) throw new DomainError('CONFLICT', OIDC_SIGN_IN_MESSAGES.notLinked);
    this.relay.kick();
    return created;
  }
}
