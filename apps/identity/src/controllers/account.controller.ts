import { Controller, Inject, UseFilters } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { EmailDto, IDENTITY_SUBJECTS, RegisterDto, VerifyOtpDto, type CallerIdentity, type MessageReply, type VerifyOtpReply } from '@medfolio/contracts';
import { Caller, RpcErrorFilter } from '@medfolio/messaging';
import { AccountService } from '../services/account.service';
import { validated } from './validation';

@Controller()
@UseFilters(RpcErrorFilter)
export class AccountController {
  constructor(@Inject(AccountService) private readonly accounts: AccountService) {}

  @MessagePattern(IDENTITY_SUBJECTS.register)
  register(@Payload(validated) dto: RegisterDto, @Caller() caller: CallerIdentity): Promise<MessageReply & { email: string }> {
    return this.accounts.register(caller, dto);
  }

  @MessagePattern(IDENTITY_SUBJECTS.verifyOtp)
  verify(@Payload(validated) dto: VerifyOtpDto, @Caller() caller: CallerIdentity): Promise<VerifyOtpReply> {
    return this.accounts.verifyOtp(caller, dto);
  }

  @MessagePattern(IDENTITY_SUBJECTS.resendOtp)
  resend(@Payload(validated) dto: EmailDto, @Caller() caller: CallerIdentity): Promise<MessageReply> {
    return this.accounts.resendOtp(caller, dto.email);
  }
}
