import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  ChangePasswordDto,
  EmailDto,
  IDENTITY_SUBJECTS,
  ResetPasswordDto,
  type CallerIdentity,
  type ChangePasswordReply,
  type ForgotPasswordReply,
  type MessageReply,
  type RevokedSessions,
} from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { PasswordService } from '../services/password.service';

@RpcController()
export class PasswordController {
  constructor(@Inject(PasswordService) private readonly passwords: PasswordService) {}

  @Handles(IDENTITY_SUBJECTS.forgotPassword)
  forgot(@Payload() dto: EmailDto, @Caller() caller: CallerIdentity): Promise<ForgotPasswordReply> {
    return this.passwords.forgot(caller, dto.email);
  }

  @Handles(IDENTITY_SUBJECTS.resetPassword)
  reset(@Payload() dto: ResetPasswordDto, @Caller() caller: CallerIdentity): Promise<MessageReply & RevokedSessions> {
    return this.passwords.reset(caller, dto);
  }

  @Handles(IDENTITY_SUBJECTS.changePassword)
  change(@Payload() dto: ChangePasswordDto, @Caller() caller: CallerIdentity): Promise<ChangePasswordReply & RevokedSessions> {
    return this.passwords.change(caller, dto);
  }
}
