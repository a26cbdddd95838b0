import { OutboxMessage, ProcessedMessage } from '@medfolio/messaging/outbox';
import { AuthFailure } from './auth-failure.entity';
import { OtpCode } from './otp-code.entity';
import { PasswordReset } from './password-reset.entity';
import { ProviderLicense } from './provider-license.entity';
import { RefreshFamily, RefreshToken } from './refresh-token.entity';
import { User } from './user.entity';

export { AuthFailure, OtpCode, PasswordReset, ProviderLicense, RefreshFamily, RefreshToken, User };

export const IDENTITY_ENTITIES = [User, OtpCode, RefreshFamily, RefreshToken, PasswordReset, AuthFailure, ProviderLicense, OutboxMessage, ProcessedMessage];
