import { OutboxMessage, ProcessedMessage } from '@medfolio/messaging/outbox';
import { AuthFailure } from './auth-failure.entity';
import { FamilyClaim } from './family-claim.entity';
import { Dependant, FamilyGrant, FamilyInvitation } from './family.entity';
import { OtpCode } from './otp-code.entity';
import { PasswordReset } from './password-reset.entity';
import { ProviderAccount } from './provider-account.entity';
import { LicenseDispute, ProviderLicense } from './provider-license.entity';
import { RefreshFamily, RefreshToken } from './refresh-token.entity';
import { User } from './user.entity';

export { AuthFailure, Dependant, FamilyClaim, FamilyGrant, FamilyInvitation, LicenseDispute, OtpCode, PasswordReset, ProviderAccount, ProviderLicense, RefreshFamily, RefreshToken, User };

export const IDENTITY_ENTITIES = [User, OtpCode, RefreshFamily, RefreshToken, PasswordReset, AuthFailure, ProviderLicense, LicenseDispute, ProviderAccount, Dependant, FamilyGrant, FamilyInvitation, FamilyClaim, OutboxMessage, ProcessedMessage];
