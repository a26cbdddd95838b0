import { OutboxMessage, ProcessedMessage } from '@medfolio/messaging/outbox';
import { Account, Customer, Entitlement, Grant, Invite, Referral, ReferralCode, ReferralReward, Subscription } from './billing.entities';

export { Account, Customer, Entitlement, Grant, Invite, Referral, ReferralCode, ReferralReward, Subscription };

/** Every entity of the service's schema. */
export const BILLING_ENTITIES = [Customer, Subscription, Entitlement, Grant, Account, ReferralCode, Referral, Invite, ReferralReward, OutboxMessage, ProcessedMessage];
