import { Inject, Injectable } from '@nestjs/common';
import { DomainError, type CallerIdentity, type LoginDto, type LogoutReply, type TokenPair } from '@medfolio/contracts';
import { AuditRecorder } from '@medfolio/audit-client';
import { OutboxRelay } from '@medfolio/messaging/outbox';
import { GOOGLE_VERIFIER, type GoogleVerifier } from '../google';
import { SessionsRepository } from '../repositories/sessions.repository';
import { UsersRepository } from '../repositories/users.repository';
import type { User } from '../entities';
import { sha256 } from './secrets';
import { AccountService } from './account.service';
import { BruteForceService } from './brute-force.service';
import { PasswordHasher } from './password-hasher';
import { TokenService } from './token.service';

export const SESSION_MESSAGES = {
  badCredentials: 'The e-mail address or password is incorrect.',
  unverified: 'Please verify your e-mail address first: enter the 4-digit code we sent you.',
  loggedOut: 'You are signed out.',
  otherGoogleAccount: 'The account with this e-mail address signs in with another Google account. Sign in with that one, or with your password.',
  stepUp: 'For your security, this sign-in needs one more step: if the e-mail address and password are right, we sent a 4-digit code to the address. Enter it to finish signing in.',
} as const;

/** Signing in (password or Google), refreshing and signing out. */
@Injectable()
export class SessionService {
  constructor(
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(SessionsRepository) private readonly sessions: SessionsRepository,
    @Inject(TokenService) private readonly tokens: TokenService,
    @Inject(BruteForceService) private readonly bruteForce: BruteForceService,
    @Inject(PasswordHasher) private readonly hasher: PasswordHasher,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
    @Inject(GOOGLE_VERIFIER) private readonly google: GoogleVerifier,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(AccountService) private readonly accounts: AccountService,
  ) {}

  /**
   * One message for an unknown e-mail and a wrong password; 403 for an unverified account.
   * Past the account-wide failure limit, a client the account does not know gets a step-up instead of
   * a refusal (403 STEP_UP_REQUIRED, the same answer whatever the password, so it tells a guesser
   * nothing): with the right password a sign-in code is e-mailed, and POST /api/verify-otp/ with it
   * signs in. The owner is never locked out from a new address; the attackers lack the mailbox.
   */
  async login(caller: CallerIdentity, dto: LoginDto): Promise<TokenPair> {
    const allowed = await this.bruteForce.assertAllowed('login', dto.email, caller.ip, new Date(), { accountWide: 'step-up' });
    const user = await this.users.findByEmail(dto.email);
    const ok = await this.hasher.verify(user?.passwordHash ?? null, dto.password);
    if (allowed === 'step-up') {
      if (user && ok) {
        // Unverified: the verification code (Resend Code) signs in as well; verified: a sign-in code.
        if (user.emailVerified) this.accounts.sendSignInCode(caller, user);
        await this.audit.record({ ...caller, userId: user.id }, { action: 'login.step-up', entityType: 'session', entityId: user.id, patientId: user.id, outcome: 'denied', policy: 'sign-in-code' });
      } else {
        await this.failedLogin(caller, dto.email, user);
      }
      throw new DomainError('STEP_UP_REQUIRED', SESSION_MESSAGES.stepUp);
    }
    if (!user || !ok) {
      await this.failedLogin(caller, dto.email, user);
      throw new DomainError('UNAUTHENTICATED', SESSION_MESSAGES.badCredentials);
    }
    if (!user.emailVerified) throw new DomainError('FORBIDDEN', SESSION_MESSAGES.unverified);
    await this.bruteForce.recordSuccess('login', dto.email, caller.ip);
    const pair = await this.tokens.startSession(user.id);
    await this.audit.record({ ...caller, userId: user.id, sessionId: pair.sessionId }, { action: 'login', entityType: 'session', entityId: pair.sessionId, patientId: user.id, outcome: 'success', policy: 'password' });
    return { access: pair.access, refresh: pair.refresh };
  }

  /**
   * Google: a Google account already linked signs in by its subject, whatever its e-mail says now.
   * Another one's verified e-mail signs in to the account with that e-mail (linking it) unless that
   * account is linked to another Google account, or else creates a verified account.
   */
  async loginWithGoogle(caller: CallerIdentity, token: string): Promise<TokenPair> {
    const identity = await this.google.verify(token);
    let user = (await this.users.findByGoogleSubject(identity.subject)) ?? (await this.users.findByEmail(identity.email));
    // Found by e-mail while linked to another Google account: that account signs in, not this one.
    if (user?.googleSubject && user.googleSubject !== identity.subject) throw new DomainError('CONFLICT', SESSION_MESSAGES.otherGoogleAccount);
    if (user) {
      if (!user.googleSubject || !user.emailVerified) await this.users.update(user.id, { googleSubject: identity.subject, ...verifiedByProvider(user) });
    } else {
      user = await this.users.create({
        email: identity.email,
        firstName: identity.givenName || identity.email.split('@')[0]!,
        lastName: identity.familyName,
        phone: '',
        dateOfBirth: null,
        passwordHash: null,
        emailVerified: true,
        googleSubject: identity.subject,
      });
      if (!user) throw new DomainError('CONFLICT', 'This Google account could not be linked. Please try again.');
      this.relay.kick();
    }
    const pair = await this.tokens.startSession(user.id);
    await this.audit.record({ ...caller, userId: user.id, sessionId: pair.sessionId }, { action: 'login', entityType: 'session', entityId: pair.sessionId, patientId: user.id, outcome: 'success', policy: 'google' });
    return { access: pair.access, refresh: pair.refresh };
  }

  refresh(caller: CallerIdentity, refresh: string): Promise<TokenPair> {
    return this.tokens.refresh(refresh, async (userId, familyId) => {
      await this.audit.record({ ...caller, userId }, { action: 'token.reuse-detected', entityType: 'session', entityId: familyId, patientId: userId, outcome: 'denied' });
    });
  }

  /**
   * Revokes the sign-in named by the refresh token, or else the caller's current one, and names it in
   * the reply (`revoked_session_ids`): the gateway that serves the sign-out refuses its access tokens
   * before it answers; the other gateways learn through the event.
   */
  async logout(caller: CallerIdentity, refresh?: string): Promise<LogoutReply> {
    const family = refresh ? await this.sessions.familyOf(sha256(refresh)) : null;
    const familyId = family?.id ?? caller.sessionId;
    if (!familyId) return { message: SESSION_MESSAGES.loggedOut };
    if (await this.sessions.revokeFamily(familyId, 'logout')) this.relay.kick();
    return { message: SESSION_MESSAGES.loggedOut, revoked_session_ids: [familyId] };
  }

  /** A wrong password (or an unknown e-mail): counted against the brute-force limits and audited. */
  private async failedLogin(caller: CallerIdentity, email: string, user: User | null): Promise<void> {
    await this.bruteForce.recordFailure('login', email, caller.ip);
    await this.audit.record(user ? { ...caller, userId: user.id } : caller, {
      action: 'login.failed',
      entityType: 'session',
      ...(user ? { patientId: user.id, entityId: user.id } : {}),
      outcome: 'failure',
    });
  }
}

/**
 * What linking a provider-verified e-mail changes on an existing account. An account whose address
 * was never verified keeps no password: whoever set it never proved the mailbox was theirs, and
 * keeping it would let someone who signed up first with another person's address sign in to the
 * account that person then completes with Google or another provider (account pre-hijacking). A
 * verified account keeps its password.
 */
export function verifiedByProvider(user: { emailVerified: boolean }): { emailVerified: true; passwordHash?: null } {
  return user.emailVerified ? { emailVerified: true } : { emailVerified: true, passwordHash: null };
}
