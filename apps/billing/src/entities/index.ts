import { OutboxMessage, ProcessedMessage } from '@medfolio/messaging/outbox';
import { Account } from './account.entity';
import { Customer } from './customer.entity';
import { Entitlement } from './entitlement.entity';
import { Grant } from './grant.entity';
import { Invite } from './invite.entity';
import { Referral } from './referral.entity';
import { ReferralCode } from './referral-code.entity';
import { ReferralReward } from './referral-reward.entity';
import { Subscription } from './subscription.entity';

export { Account, Customer, Entitlement, Grant, Invite, Referral, ReferralCode, ReferralReward, Subscription };

/** Every entity of the service's schema. */
export const BILLING_ENTITIES = [Customer, Subscription, Entitlement, Grant, Account, ReferralCode, Referral, Invite, ReferralReward, OutboxMessage, ProcessedMessage];
