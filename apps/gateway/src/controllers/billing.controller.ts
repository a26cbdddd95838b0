import { Body, Controller, Get, Headers, HttpCode, Inject, Post, Req, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiConflictResponse,
  ApiExcludeEndpoint,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { SkipThrottle, Throttle } from '@nestjs/throttler';
import { BILLING_MESSAGES, CheckoutDto, DomainError, InviteDto, type CallerIdentity, type CheckoutReply, type MembershipView, type PlansReply, type ReferralView, type WebhookReply } from '@medfolio/contracts';
import { BillingRepository } from '../repositories/billing.repository';
import { CurrentCaller } from '../services/caller.decorator';
import { MAIL_SENDING_PER_CLIENT } from './auth.controller';
import { CheckoutBodyDoc, CheckoutReplyDoc, InviteBodyDoc, MembershipDoc, PlansReplyDoc, ReferralDoc } from './billing.openapi';
import { ErrorDoc, MessageDoc } from './openapi.models';

/** Stripe's webhook: its body reaches the route as the exact text received (web/http-hardening.ts). */
export const STRIPE_WEBHOOK_PATH = '/api/stripe/webhook/';

/** Plans, the signed-in user's membership, checkout, cancellation. Thin: one call to billing each. */
@ApiTags('billing')
@Controller()
export class BillingController {
  constructor(@Inject(BillingRepository) private readonly billing: BillingRepository) {}

  @Get('plans')
  @ApiOperation({ summary: 'The plans and their prices (public), and whether payments are configured' })
  @ApiOkResponse({ type: PlansReplyDoc })
  plans(@CurrentCaller() caller: CallerIdentity): Promise<PlansReply> {
    return this.billing.plans(caller);
  }

  @Get('membership')
  @ApiBearerAuth()
  @UseGuards(AuthGuard('jwt'))
  @ApiOperation({ summary: "The signed-in user's plan: price, period, autopay and the next payment" })
  @ApiOkResponse({ type: MembershipDoc })
  membership(@CurrentCaller() caller: CallerIdentity): Promise<MembershipView> {
    return this.billing.membership(caller);
  }

  @Post('stripe/checkout')
  @HttpCode(200)
  @ApiBearerAuth()
  @UseGuards(AuthGuard('jwt'))
  @ApiOperation({
    summary: 'Buy a plan (a new subscription: the first payment is confirmed with Stripe.js) or change plan (prorated)',
    description: 'The total is the price plus 8% tax, rounded to cents. The plan starts when Stripe confirms the payment (webhook).',
  })
  @ApiBody({ type: CheckoutBodyDoc })
  @ApiOkResponse({ type: CheckoutReplyDoc })
  @ApiBadRequestResponse({ type: ErrorDoc, description: "'Invalid plan selected.'" })
  @ApiConflictResponse({ type: ErrorDoc, description: 'Already on this plan' })
  @ApiServiceUnavailableResponse({ type: ErrorDoc, description: 'Payments are not configured on this server' })
  checkout(@Body() dto: CheckoutDto, @CurrentCaller() caller: CallerIdentity): Promise<CheckoutReply> {
    return this.billing.checkout(dto, caller);
  }

  @Post('membership/cancel')
  @HttpCode(200)
  @ApiBearerAuth()
  @UseGuards(AuthGuard('jwt'))
  @ApiOperation({ summary: 'Cancel the paid plan: it runs to the end of the period, then the account is on Free' })
  @ApiOkResponse({ type: MembershipDoc })
  cancel(@CurrentCaller() caller: CallerIdentity): Promise<MembershipView> {
    return this.billing.cancel(caller);
  }

  /** Stripe calls this: no bearer token (the signature is the authentication), no rate limit per address. */
  @Post('stripe/webhook')
  @HttpCode(200)
  @SkipThrottle()
  @ApiExcludeEndpoint()
  webhook(@Req() request: { body?: unknown }, @Headers('stripe-signature') signature: string | undefined, @CurrentCaller() caller: CallerIdentity): Promise<WebhookReply> {
    const raw = (request.body as { raw?: unknown } | undefined)?.raw;
    if (typeof raw !== 'string' || !signature) throw new DomainError('VALIDATION_FAILED', BILLING_MESSAGES.badSignature);
    return this.billing.webhook({ payload: raw, signature }, caller);
  }

  @Get('referral')
  @ApiBearerAuth()
  @UseGuards(AuthGuard('jwt'))
  @ApiOperation({ summary: 'Your referral code and link, and how many friends were invited, joined and counted' })
  @ApiOkResponse({ type: ReferralDoc })
  referral(@CurrentCaller() caller: CallerIdentity): Promise<ReferralView> {
    return this.billing.referral(caller);
  }

  @Post('referral/invite')
  @HttpCode(200)
  @ApiBearerAuth()
  @UseGuards(AuthGuard('jwt'))
  @Throttle(MAIL_SENDING_PER_CLIENT)
  @ApiOperation({ summary: 'E-mail a friend your sign-up link; the answer is the same for any address' })
  @ApiBody({ type: InviteBodyDoc })
  @ApiOkResponse({ type: MessageDoc })
  @ApiBadRequestResponse({ type: ErrorDoc, description: "'Invalid email', 'You cannot invite yourself.'" })
  @ApiTooManyRequestsResponse({ type: ErrorDoc, description: 'Too many invitations today' })
  invite(@Body() dto: InviteDto, @CurrentCaller() caller: CallerIdentity): Promise<{ message: string }> {
    return this.billing.invite(dto, caller);
  }
}
