import { Controller, Inject, UseFilters } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ChangePasswordDto,
  EmailDto,
  IDENTITY_SUBJECTS,
  ResetPasswordDto,
  type CallerIdentity,
  type ChangePasswordReply,
  type ForgotPasswordReply,
  type MessageReply,
} from '@medfolio/contracts';
import { Caller, RpcErrorFilter } from '@medfolio/messaging';
import { PasswordService } from '../services/password.service';
import { validated } from './validation';

@Controller()
@UseFilters(RpcErrorFilter)
export class PasswordController {
  constructor(@Inject(PasswordService) private readonly passwords: PasswordService) {}

  @MessagePattern(IDENTITY_SUBJECTS.forgotPassword)
  forgot(@Payload(validated) dto: EmailDto, @Caller() caller: CallerIdentity): Promise<ForgotPasswordReply> {
    return this.passwords.forgot(caller, dto.email);
  }

  @MessagePattern(IDENTITY_SUBJECTS.resetPassword)
  reset(@Payload(validated) dto: ResetPasswordDto, @Caller() caller: CallerIdentity): Promise<MessageReply> {
    return this.passwords.reset(caller, dto);
  }

  @MessagePattern(IDENTITY_SUBJECTS.changePassword)
  change(@Payload(validated) dto: ChangePasswordDto, @Caller() caller: CallerIdentity): Promise<ChangePasswordReply> {
    return this.passwords.change(caller, dto);
  }
}
