import { ApiProperty } from '@nestjs/swagger';
import { BILLING_MODES, PAID_PLAN_IDS, PLAN_IDS, SUBSCRIPTION_STATES } from '@medfolio/contracts';

/** OpenAPI shapes of the billing routes (the contract's DTOs carry the validation). */
export class CheckoutBodyDoc {
  @ApiProperty({ example: 'price_plus_yearly', description: 'One of the eight price ids (price_<tier>_<monthly|yearly>)' }) price_id!: string;
  @ApiProperty({ enum: PAID_PLAN_IDS, example: 'plus' }) tier!: string;
  @ApiProperty({ enum: BILLING_MODES, example: 'yearly' }) mode!: string;
}

export class CheckoutReplyDoc {
  @ApiProperty({ nullable: true, type: String, description: "The client secret for Stripe.js of the first invoice, or of a plan change's prorated invoice when its payment needs the customer; null when nothing is to be confirmed (a plan change, its prorated difference invoiced and paid at once)" })
  id!: string | null;
  @ApiProperty({ example: 'Confirm the payment to start your plan.' }) message!: string;
  @ApiProperty({ example: 24000 }) subtotal_cents!: number;
  @ApiProperty({ example: 1920 }) tax_cents!: number;
  @ApiProperty({ example: 25920 }) total_cents!: number;
}

class PriceIdsDoc {
  @ApiProperty({ example: 'price_basic_monthly' }) monthly!: string;
  @ApiProperty({ example: 'price_basic_yearly' }) yearly!: string;
}

export class PlanDoc {
  @ApiProperty({ enum: PLAN_IDS }) id!: string;
  @ApiProperty({ example: 'Basic' }) name!: string;
  @ApiProperty({ example: 800 }) monthly_cents!: number;
  @ApiProperty({ example: 8000 }) yearly_cents!: number;
  @ApiProperty({ type: PriceIdsDoc, nullable: true }) price_ids!: PriceIdsDoc | null;
}

export class PlansReplyDoc {
  @ApiProperty({ type: [PlanDoc] }) plans!: PlanDoc[];
  @ApiProperty({ description: 'False when payments are not configured: plans are shown, nothing can be bought' }) payments_configured!: boolean;
  @ApiProperty({ example: 8 }) tax_percent!: number;
}

export class MembershipDoc {
  @ApiProperty({ enum: PLAN_IDS }) plan!: string;
  @ApiProperty({ example: 'Family' }) plan_name!: string;
  @ApiProperty({ enum: SUBSCRIPTION_STATES }) status!: string;
  @ApiProperty({ enum: BILLING_MODES, nullable: true, type: String }) mode!: string | null;
  @ApiProperty({ example: 49000 }) price_cents!: number;
  @ApiProperty({ description: 'The plan renews by itself' }) autopay!: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'End of the current period: the next payment' }) current_period_end!: string | null;
  @ApiProperty() cancel_at_period_end!: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'A past-due plan stays until then' }) grace_until!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'End of a free month earned by referrals' }) granted_until!: string | null;
  @ApiProperty() payments_configured!: boolean;
}

export class ReferralDoc {
  @ApiProperty({ example: 'K7M2QX9A' }) code!: string;
  @ApiProperty({ example: 'https://medfolio.example/sign-up?ref=K7M2QX9A' }) link!: string;
  @ApiProperty({ description: 'Invitations sent' }) invited!: number;
  @ApiProperty({ description: 'Friends who signed up with the code' }) joined!: number;
  @ApiProperty({ description: 'Friends who verified their e-mail as new accounts' }) counted!: number;
  @ApiProperty({ description: 'Free months earned (one per 3 counted)' }) months_earned!: number;
  @ApiProperty({ description: 'Counted friends towards the next month' }) towards_next!: number;
  @ApiProperty({ description: 'Credit given on invoices, in cents' }) credit_cents!: number;
}

export class InviteBodyDoc {
  @ApiProperty({ maxLength: 100, format: 'email', example: 'friend@example.com' }) email!: string;
}

export class WebhookReplyDoc {
  @ApiProperty({ example: true }) received!: boolean;
  @ApiProperty({ enum: ['processed', 'duplicate', 'ignored'] }) outcome!: string;
}
