import { CreateOutboxTables1795290000000 } from '@medfolio/messaging/outbox';
import { CreateIdentity1795300000000 } from './1795300000000-create-identity';
import { ProviderLicenses1797100000000 } from './1797100000000-provider-licenses';
import { GenderAndReferralCode1797100000001 } from './1797100000001-gender-and-referral-code';
import { LicenseReview1797300000025 } from './1797300000025-license-review';
import { ProviderAccounts1797300000026 } from './1797300000026-provider-accounts';
import { Family1797400000000 } from './1797400000000-family';
import { DependantErasure1797400000010 } from './1797400000010-dependant-erasure';
import { FamilyTeens1797500000000 } from './1797500000000-family-teens';

export const IDENTITY_MIGRATIONS = [CreateOutboxTables1795290000000, CreateIdentity1795300000000, ProviderLicenses1797100000000, GenderAndReferralCode1797100000001, LicenseReview1797300000025, ProviderAccounts1797300000026, Family1797400000000, DependantErasure1797400000010, FamilyTeens1797500000000];
