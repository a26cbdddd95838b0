import { Controller, Headers, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { BILLING_MESSAGES, BILLING_SUBJECTS, DomainError, type CallerIdentity, type WebhookReply } from '@medfolio/contracts';
import { ServicesRepository } from '../repositories/services.repository';
import { CurrentCaller } from '../services/caller.decorator';

/**
 * POST /api/stripe/webhook/ (billingWebhook in the route table): Stripe's events. Hand-written
 * because the signature is over the raw body, which bootstrap keeps as text for this path only;
 * the billing service checks it and applies the event once.
 */
@Controller('stripe')
export class StripeWebhookController {
  constructor(@Inject(ServicesRepository) private readonly services: ServicesRepository) {}

  @Post('webhook')
  @HttpCode(200)
  @SkipThrottle()
  webhook(@Req() request: { body?: unknown }, @Headers('stripe-signature') signature: string | undefined, @CurrentCaller() caller: CallerIdentity): Promise<WebhookReply> {
    const raw = (request.body as { raw?: unknown } | undefined)?.raw;
    if (typeof raw !== 'string' || !signature) throw new DomainError('VALIDATION_FAILED', BILLING_MESSAGES.badSignature);
    return this.services.call(BILLING_SUBJECTS.webhook, { payload: raw, signature }, caller);
  }
}
