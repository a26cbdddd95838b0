import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EmailDto, IDENTITY_SUBJECTS, RegisterDto, VerifyOtpDto, type CallerIdentity, type MessageReply, type VerifyOtpReply } from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { AccountService } from '../services/account.service';

@RpcController()
export class AccountController {
  constructor(@Inject(AccountService) private readonly accounts: AccountService) {}

  @Handles(IDENTITY_SUBJECTS.register)
  register(@Payload() dto: RegisterDto, @Caller() caller: CallerIdentity): Promise<MessageReply & { email: string }> {
    return this.accounts.register(caller, dto);
  }

  @Handles(IDENTITY_SUBJECTS.verifyOtp)
  verify(@Payload() dto: VerifyOtpDto, @Caller() caller: CallerIdentity): Promise<VerifyOtpReply> {
    return this.accounts.verifyOtp(caller, dto);
  }

  @Handles(IDENTITY_SUBJECTS.resendOtp)
  resend(@Payload() dto: EmailDto, @Caller() caller: CallerIdentity): Promise<MessageReply> {
    return this.accounts.resendOtp(caller, dto.email);
  }
}
