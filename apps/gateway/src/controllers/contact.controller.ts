import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiOkResponse, ApiOperation, ApiProperty, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { ContactMessageDto, type CallerIdentity, type ContactReply } from '@medfolio/contracts';
import { NotificationsRepository } from '../repositories/notifications.repository';
import { MAIL_SENDING_PER_CLIENT } from './auth.controller';
import { CurrentCaller } from '../services/caller.decorator';
import { ErrorDoc } from './openapi.models';

/** OpenAPI shape of the form (the contract's DTO carries the validation, this the documentation). */
class ContactMessageDoc {
  @ApiProperty({ maxLength: 100, example: 'Ada' }) firstname!: string;
  @ApiProperty({ maxLength: 100, example: 'Lovelace' }) lastname!: string;
  @ApiProperty({ maxLength: 100, format: 'email', example: 'ada@example.com' }) email!: string;
  @ApiProperty({ maxLength: 200, example: 'I cannot find my uploaded documents.' }) message!: string;
}

class ContactReplyDoc {
  @ApiProperty({ example: 'Thank you! Your message has been sent.' }) message!: string;
}

/** The contact form: public (no sign-in), and throttled harder than the rest, as anyone can post it. */
@ApiTags('contact')
@Controller('contact')
export class ContactController {
  constructor(@Inject(NotificationsRepository) private readonly notifications: NotificationsRepository) {}

  @Post()
  @HttpCode(200)
  @Throttle(MAIL_SENDING_PER_CLIENT)
  @ApiOperation({ summary: 'Send a message to support (the contact form); no sign-in needed' })
  @ApiBody({ type: ContactMessageDoc })
  @ApiOkResponse({ type: ContactReplyDoc })
  @ApiBadRequestResponse({
    type: ErrorDoc,
    description: "A field is missing ('Firstname is required', ...), too long ('Limit exceeded (100 characters)'), or the e-mail is not one ('Invalid email')",
  })
  @ApiTooManyRequestsResponse({ type: ErrorDoc, description: 'More than 10 messages a minute from one address' })
  submit(@Body() form: ContactMessageDto, @CurrentCaller() caller: CallerIdentity): Promise<ContactReply> {
    return this.notifications.submitContact(form, caller);
  }
}
