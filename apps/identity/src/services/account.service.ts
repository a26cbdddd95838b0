import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError, type CallerIdentity, type MessageReply, type RegisterDto, type VerifyOtpDto, type VerifyOtpReply } from '@medfolio/contracts';
import { AuditRecorder } from '@medfolio/audit-client';
import { OutboxRelay } from '@medfolio/messaging/outbox';
import { IdentityConfig } from '../config';
import { KeysRepository } from '../repositories/keys.repository';
import { NotificationsRepository } from '../repositories/notifications.repository';
import { OtpRepository } from '../repositories/otp.repository';
import { UsersRepository } from '../repositories/users.repository';
import type { User } from '../entities';
import { BruteForceService, formatWait } from './brute-force.service';
import { checkDateOfBirth } from './date-of-birth';
import { PasswordHasher } from './password-hasher';
import { otpCode, otpHash, sameHash } from './secrets';
import { TokenService } from './token.service';

const CODE_TTL_MS = 10 * 60 * 1000;
const MAX_WRONG_TRIES = 5;
const RESEND_GAP_MS = 30 * 1000;
const RESENDS_PER_HOUR = 5;
/** "Someone tried to sign up with your address" e-mails to one address an hour, at most. */
export const SIGN_UP_ATTEMPT_MAILS_PER_HOUR = 3;
/** Sign-in codes (step-up) e-mailed to one address an hour, at most; each needs the right password. */
export const SIGN_IN_CODE_MAILS_PER_HOUR = 10;

/** A sign-in code's HMAC is bound to its purpose: a verification code never passes for one, nor the reverse. */
const signInCodeSubject = (userId: string) => `sign-in:${userId}`;

export const MESSAGES = {
  registered: 'Account created. We sent a 4-digit code to your e-mail address: enter it to verify your account.',
  verified: 'Your e-mail address is verified. You can sign in now.',
  signedIn: 'The code is right: you are signed in.',
  alreadyVerified: 'This e-mail address is already verified. You can sign in.',
  badCode: 'This code is not valid. Check the code in your e-mail, or ask for a new one.',
  expiredCode: 'This code has expired. Ask for a new one.',
  tooManyTries: 'Too many wrong codes. Ask for a new one.',
  resent: 'If this account needs verifying, a new code is on its way to the e-mail address.',
} as const;

/** A referral code as billing makes them (8 letters and digits), upper-cased; anything else is dropped. */
export function referralCode(ref: string | undefined): string | null {
  const code = ref?.trim().toUpperCase();
  return code && /^[A-Z0-9]{8}$/.test(code) ? code : null;
}

/** Sign-up and e-mail verification. */
@Injectable()
export class AccountService {
  private readonly logger = new Logger(AccountService.name);

  constructor(
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(OtpRepository) private readonly otps: OtpRepository,
    @Inject(KeysRepository) private readonly keys: KeysRepository,
    @Inject(NotificationsRepository) private readonly notifications: NotificationsRepository,
    @Inject(BruteForceService) private readonly bruteForce: BruteForceService,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(PasswordHasher) private readonly hasher: PasswordHasher,
    @Inject(TokenService) private readonly tokens: TokenService,
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
  ) {}

  /**
   * The same answer for a new address and for one that has an account (no enumeration: a taken
   * address answered 409). A new address gets the account and its code; a taken one changes nothing
   * and its owner gets an e-mail saying someone tried to sign up with it (sign in, or reset the
   * password), at most SIGN_UP_ATTEMPT_MAILS_PER_HOUR an hour. Both do the same work (a password hash,
   * an insert, one e-mail handed to notifications), so the time does not tell them apart either.
   */
  async register(caller: CallerIdentity, dto: RegisterDto): Promise<MessageReply & { email: string }> {
    const dateOfBirth = checkDateOfBirth(dto.date_of_birth);
    const passwordHash = await this.hasher.hash(dto.password);
    const code = otpCode();
    const secret = await this.keys.hmacSecret();
    const user = await this.users.create(
      {
        email: dto.email,
        firstName: dto.first_name,
        lastName: dto.last_name ?? '',
        phone: dto.phone,
        dateOfBirth,
        passwordHash,
        emailVerified: false,
        googleSubject: null,
        referralCode: referralCode(dto.ref),
      },
      async (manager, created) => this.otps.create(created.id, otpHash(secret, created.id, code), new Date(Date.now() + CODE_TTL_MS), manager),
    );
    if (!user) {
      await this.tellOwnerOfSignUpAttempt(caller, dto.email);
      return { message: MESSAGES.registered, email: dto.email };
    }
    this.relay.kick();
    await this.audit.record({ ...caller, userId: user.id }, { action: 'account.register', entityType: 'user', entityId: user.id, patientId: user.id, outcome: 'success', policy: 'self' });
    await this.sendCode(caller, user, code);
    return { message: MESSAGES.registered, email: user.email };
  }

  /**
   * The right code proves the mailbox, as a password would the account: the reply carries a new
   * session, so the user is signed in at once (an address verified before gets no session here).
   * For a verified address the code is a sign-in code (step-up, see SessionService.login): the
   * password was right, and the code finishes the sign-in.
   */
  async verifyOtp(caller: CallerIdentity, dto: VerifyOtpDto): Promise<VerifyOtpReply> {
    // A sign-in code is sent only after the right password and allows 5 tries: the account-wide count
    // (which anyone can run up) does not bind it, or attackers could stop the owner's step-up.
    await this.bruteForce.assertAllowed('otp', dto.email, caller.ip, new Date(), { accountWide: 'ignore' });
    const user = await this.users.findByEmail(dto.email);
    if (user?.emailVerified) return this.verifySignInCode(caller, user, dto);
    await this.bruteForce.assertAllowed('otp', dto.email, caller.ip);
    if (!user) {
      await this.bruteForce.recordFailure('otp', dto.email, caller.ip);
      throw new DomainError('VALIDATION_FAILED', MESSAGES.badCode);
    }
    const secret = await this.keys.hmacSecret();
    const outcome = await this.users.transaction(async (manager) => {
      const current = await this.otps.lockNewest(manager, user.id);
      if (!current) return 'bad';
      if (current.expiresAt.getTime() <= Date.now()) return 'expired';
      if (current.failedAttempts >= MAX_WRONG_TRIES) return 'too-many';
      if (!/^\d{4}$/.test(dto.otp) || !sameHash(current.codeHash, otpHash(secret, user.id, dto.otp))) {
        await this.otps.recordFailure(manager, current.id);
        return current.failedAttempts + 1 >= MAX_WRONG_TRIES ? 'too-many' : 'bad';
      }
      await this.otps.consume(manager, current.id);
      await this.users.markVerified(manager, user);
      return 'verified';
    });
    switch (outcome) {
      case 'verified':
        this.relay.kick();
        await this.bruteForce.recordSuccess('otp', dto.email, caller.ip, { clearAccount: true });
        await this.audit.record({ ...caller, userId: user.id }, { action: 'account.verify', entityType: 'user', entityId: user.id, patientId: user.id, outcome: 'success', policy: 'self' });
        return { message: MESSAGES.verified, ...(await this.startSession(caller, user)) };
      case 'expired':
      case 'too-many':
      case 'bad':
        return this.codeRefused(caller, dto, outcome);
    }
  }

  /** A code that did not sign in: expired, its tries used up, or wrong (the last two are counted). */
  private async codeRefused(caller: CallerIdentity, dto: VerifyOtpDto, outcome: 'expired' | 'too-many' | 'bad'): Promise<never> {
    if (outcome === 'expired') throw new DomainError('VALIDATION_FAILED', MESSAGES.expiredCode);
    await this.bruteForce.recordFailure('otp', dto.email, caller.ip);
    throw new DomainError('VALIDATION_FAILED', outcome === 'too-many' ? MESSAGES.tooManyTries : MESSAGES.badCode);
  }

  /**
   * Step-up: the sign-in code e-mailed after the right password from a client the account does not
   * know while it is under attack. Right: signed in, and this client is known from now on. No live
   * code: the address is just verified (as before). Wrong: the code's 5 tries, then a new sign-in.
   * Only the client the code was sent for may try it: others get the answer as if no code were live,
   * and cannot use up its tries.
   */
  private async verifySignInCode(caller: CallerIdentity, user: User, dto: VerifyOtpDto): Promise<VerifyOtpReply> {
    if (!(await this.bruteForce.stepUpPending(user.email, caller.ip, CODE_TTL_MS))) return { message: MESSAGES.alreadyVerified };
    const secret = await this.keys.hmacSecret();
    const outcome = await this.users.transaction(async (manager) => {
      const current = await this.otps.lockNewest(manager, user.id);
      if (!current) return 'none';
      if (current.expiresAt.getTime() <= Date.now()) return 'expired';
      if (current.failedAttempts >= MAX_WRONG_TRIES) return 'too-many';
      if (!/^\d{4}$/.test(dto.otp) || !sameHash(current.codeHash, otpHash(secret, signInCodeSubject(user.id), dto.otp))) {
        await this.otps.recordFailure(manager, current.id);
        return current.failedAttempts + 1 >= MAX_WRONG_TRIES ? 'too-many' : 'bad';
      }
      await this.otps.consume(manager, current.id);
      return 'signed-in';
    });
    switch (outcome) {
      case 'none':
        return { message: MESSAGES.alreadyVerified };
      case 'signed-in': {
        await this.bruteForce.recordSuccess('otp', dto.email, caller.ip);
        await this.bruteForce.recordSuccess('login', dto.email, caller.ip);
        const pair = await this.tokens.startSession(user.id);
        await this.audit.record({ ...caller, userId: user.id, sessionId: pair.sessionId }, { action: 'login', entityType: 'session', entityId: pair.sessionId, patientId: user.id, outcome: 'success', policy: 'password+sign-in-code' });
        return { message: MESSAGES.signedIn, access: pair.access, refresh: pair.refresh };
      }
      case 'expired':
      case 'too-many':
      case 'bad':
        return this.codeRefused(caller, dto, outcome);
    }
  }

  /**
   * Queues a sign-in code for `user` (the caller gave the right password): the work (code, row, e-mail)
   * runs after the reply, so the answer takes as long as for a wrong password.
   */
  sendSignInCode(caller: CallerIdentity, user: User): void {
    const queued = this.signInCodes.then(() => this.issueSignInCode(caller, user));
    this.signInCodes = queued.catch((error: unknown) => this.logger.warn({ userId: user.id, err: String(error) }, 'sign-in code not sent'));
  }

  private signInCodes: Promise<void> = Promise.resolve();

  /** Waits for queued sign-in codes (tests, shutdown). */
  async settled(): Promise<void> {
    await this.signInCodes;
  }

  private async issueSignInCode(caller: CallerIdentity, user: User): Promise<void> {
    if (!(await this.bruteForce.allowMail(user.email, SIGN_IN_CODE_MAILS_PER_HOUR, new Date(), 'sign-in-code'))) return;
    const code = otpCode();
    const secret = await this.keys.hmacSecret();
    await this.otps.create(user.id, otpHash(secret, signInCodeSubject(user.id), code), new Date(Date.now() + CODE_TTL_MS));
    await this.bruteForce.rememberStepUp(user.email, caller.ip);
    await this.notifications.send(caller, user.email, 'sign-in-code', { first_name: user.firstName, code });
  }

  /** The same answer whether or not the account exists; at most one code per 30 s and 5 an hour. */
  async resendOtp(caller: CallerIdentity, email: string): Promise<MessageReply> {
    const user = await this.users.findByEmail(email);
    if (!user || user.emailVerified) return { message: MESSAGES.resent };
    const now = Date.now();
    const recent = await this.otps.sentSince(user.id, new Date(now - 3600 * 1000));
    const last = recent[0];
    if (last && now - last.createdAt.getTime() < RESEND_GAP_MS) {
      const wait = Math.ceil((RESEND_GAP_MS - (now - last.createdAt.getTime())) / 1000);
      throw new DomainError('RATE_LIMITED', `Please wait ${formatWait(wait)} before asking for a new code.`, { retry_after: [String(wait)] });
    }
    if (recent.length >= RESENDS_PER_HOUR) {
      const oldest = recent[recent.length - 1]!;
      const wait = Math.ceil((oldest.createdAt.getTime() + 3600 * 1000 - now) / 1000);
      throw new DomainError('RATE_LIMITED', `Too many codes requested. Please try again in ${formatWait(wait)}.`, { retry_after: [String(wait)] });
    }
    const code = otpCode();
    const secret = await this.keys.hmacSecret();
    await this.otps.create(user.id, otpHash(secret, user.id, code), new Date(now + CODE_TTL_MS));
    await this.sendCode(caller, user, code);
    return { message: MESSAGES.resent };
  }

  private async startSession(caller: CallerIdentity, user: User): Promise<{ access: string; refresh: string }> {
    const pair = await this.tokens.startSession(user.id);
    await this.audit.record({ ...caller, userId: user.id, sessionId: pair.sessionId }, { action: 'login', entityType: 'session', entityId: pair.sessionId, patientId: user.id, outcome: 'success', policy: 'verification-code' });
    return { access: pair.access, refresh: pair.refresh };
  }

  private async tellOwnerOfSignUpAttempt(caller: CallerIdentity, email: string): Promise<void> {
    const owner = await this.users.findByEmail(email);
    if (!owner) return; // gone meanwhile (or Google-only): nothing to tell
    await this.audit.record(caller, { action: 'account.register', entityType: 'user', entityId: owner.id, patientId: owner.id, outcome: 'denied', policy: 'email-taken' });
    if (!(await this.bruteForce.allowMail(owner.email, SIGN_UP_ATTEMPT_MAILS_PER_HOUR))) return;
    const base = this.config.publicBaseUrl.replace(/\/$/, '');
    try {
      await this.notifications.send(caller, owner.email, 'sign-up-attempt', { first_name: owner.firstName, sign_in_url: `${base}/login`, reset_url: `${base}/forgot-password` });
    } catch (error) {
      this.logger.warn({ userId: owner.id, err: String(error) }, 'sign-up attempt e-mail could not be handed to notifications');
    }
  }

  /** If notifications is down the account still exists; "Resend code" recovers. */
  private async sendCode(caller: CallerIdentity, user: User, code: string): Promise<void> {
    try {
      await this.notifications.send(caller, user.email, 'verification-code', { first_name: user.firstName, code });
    } catch (error) {
      this.logger.warn({ userId: user.id, err: String(error) }, 'verification code could not be handed to notifications');
    }
  }
}
