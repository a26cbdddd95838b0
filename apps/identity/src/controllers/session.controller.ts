import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { GoogleLoginDto, OidcLoginDto, type OidcProvidersReply, IDENTITY_SUBJECTS, LoginDto, LogoutDto, RefreshDto, type CallerIdentity, type LogoutReply, type TokenPair } from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { OidcSignInService } from '../services/oidc-sign-in.service';
import { SessionService } from '../services/session.service';

@RpcController()
export class SessionController {
  constructor(
    @Inject(SessionService) private readonly sessions: SessionService,
    @Inject(OidcSignInService) private readonly oidc: OidcSignInService,
  ) {}

  @Handles(IDENTITY_SUBJECTS.login)
  login(@Payload() dto: LoginDto, @Caller() caller: CallerIdentity): Promise<TokenPair> {
    return this.sessions.login(caller, dto);
  }

  @Handles(IDENTITY_SUBJECTS.loginWithGoogle)
  google(@Payload() dto: GoogleLoginDto, @Caller() caller: CallerIdentity): Promise<TokenPair> {
    return this.sessions.loginWithGoogle(caller, dto.token);
  }

  @Handles(IDENTITY_SUBJECTS.oidcProviders)
  oidcProviders(): Promise<OidcProvidersReply> {
    return this.oidc.list();
  }

  @Handles(IDENTITY_SUBJECTS.loginWithOidc)
  loginWithOidc(@Payload() dto: OidcLoginDto, @Caller() caller: CallerIdentity): Promise<TokenPair> {
    return this.oidc.signIn(caller, dto);
  }

  @Handles(IDENTITY_SUBJECTS.refresh)
  refresh(@Payload() dto: RefreshDto, @Caller() caller: CallerIdentity): Promise<TokenPair> {
    return this.sessions.refresh(caller, dto.refresh);
  }

  @Handles(IDENTITY_SUBJECTS.logout)
  logout(@Payload() dto: LogoutDto, @Caller() caller: CallerIdentity): Promise<LogoutReply> {
    return this.sessions.logout(caller, dto.refresh);
  }
}
