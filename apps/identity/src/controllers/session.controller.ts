import { Controller, Inject, UseFilters } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { GoogleLoginDto, IDENTITY_SUBJECTS, LoginDto, LogoutDto, RefreshDto, type CallerIdentity, type MessageReply, type TokenPair } from '@medfolio/contracts';
import { Caller, RpcErrorFilter } from '@medfolio/messaging';
import { SessionService } from '../services/session.service';
import { validated } from './validation';

@Controller()
@UseFilters(RpcErrorFilter)
export class SessionController {
  constructor(@Inject(SessionService) private readonly sessions: SessionService) {}

  @MessagePattern(IDENTITY_SUBJECTS.login)
  login(@Payload(validated) dto: LoginDto, @Caller() caller: CallerIdentity): Promise<TokenPair> {
    return this.sessions.login(caller, dto);
  }

  @MessagePattern(IDENTITY_SUBJECTS.loginWithGoogle)
  google(@Payload(validated) dto: GoogleLoginDto, @Caller() caller: CallerIdentity): Promise<TokenPair> {
    return this.sessions.loginWithGoogle(caller, dto.token);
  }

  @MessagePattern(IDENTITY_SUBJECTS.refresh)
  refresh(@Payload(validated) dto: RefreshDto, @Caller() caller: CallerIdentity): Promise<TokenPair> {
    return this.sessions.refresh(caller, dto.refresh);
  }

  @MessagePattern(IDENTITY_SUBJECTS.logout)
  logout(@Payload(validated) dto: LogoutDto, @Caller() caller: CallerIdentity): Promise<MessageReply> {
    return this.sessions.logout(caller, dto.refresh);
  }
}
