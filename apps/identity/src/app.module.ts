import { Module, type DynamicModule } from '@nestjs/common';
import { AuditClientModule } from '@medfolio/audit-client';
import type { EventBus } from '@medfolio/messaging';
import { createStorageFor, SignedFilesController, signedFilesProviders } from '@medfolio/runtime';
import { ServiceKitModule } from '@medfolio/runtime/service-kit';
import { BLOB_STORAGE } from '@medfolio/storage';
import { IdentityConfig } from './config';
import { PROFILE_PICTURE_KEY_PREFIX } from './pictures';
import { AccountController } from './controllers/account.controller';
import { FamilyController } from './controllers/family.controller';
import { FamilyClaimsController } from './controllers/family-claims.controller';
import { FamilyClaimsService } from './family/family-claims.service';
import { FamilyClaimsRepository } from './repositories/family-claims.repository';
import { FamilyService } from './family/family.service';
import { FamilyReminders } from './family/family-reminders';
import { FAMILY_CLOCK, SYSTEM_CLOCK } from './family/family-rules';
import { FamilyRepository } from './repositories/family.repository';
import { PlansRepository } from './repositories/plans.repository';
import { JwksController } from './controllers/jwks.controller';
import { ProfilePictureController } from './controllers/profile-picture.controller';
import { PasswordController } from './controllers/password.controller';
import { ProfileController } from './controllers/profile.controller';
import { ProviderController } from './controllers/provider.controller';
import { SessionController } from './controllers/session.controller';
import { IDENTITY_ENTITIES } from './entities';
import { createGoogleVerifier, createOidcProviders } from './google-verifier.factory';
import { OIDC_PROVIDERS } from './oidc';
import { GOOGLE_VERIFIER } from './google';
import { IDENTITY_MIGRATIONS } from './migrations';
import { AuthFailuresRepository } from './repositories/auth-failures.repository';
import { KeysRepository } from './repositories/keys.repository';
import { NotificationsRepository } from './repositories/notifications.repository';
import { OtpRepository } from './repositories/otp.repository';
import { PasswordResetsRepository } from './repositories/password-resets.repository';
import { SessionsRepository } from './repositories/sessions.repository';
import { ProfilePicturesRepository } from './repositories/profile-pictures.repository';
import { ProviderAccountsRepository } from './repositories/provider-accounts.repository';
import { ProviderLicensesRepository } from './repositories/provider-licenses.repository';
import { UsersRepository } from './repositories/users.repository';
import { LICENSE_VERIFIER } from './providers/license-verifier';
import { NpiRegistryRepository } from './repositories/npi-registry.repository';
import { LicenseService } from './services/license.service';
import { LicenseReviewService } from './services/license-review.service';
import { AccountService } from './services/account.service';
import { BruteForceService } from './services/brute-force.service';
import { PasswordHasher } from './services/password-hasher';
import { PasswordService } from './services/password.service';
import { ProfileService } from './services/profile.service';
import { OidcSignInService } from './services/oidc-sign-in.service';
import { SessionService } from './services/session.service';
import { TokenService } from './services/token.service';

export interface IdentityAppOptions {
  config: IdentityConfig;
  eventBus: EventBus;
  http: boolean;
}

export function identityDbOptions(config: IdentityConfig) {
  return { name: 'identity' as const, config, entities: IDENTITY_ENTITIES, migrations: IDENTITY_MIGRATIONS };
}

/** Accounts, verification codes, sign-ins and tokens, passwords, Google sign-in, profiles. */
@Module({})
export class IdentityAppModule {
  static register(options: IdentityAppOptions): DynamicModule {
    return {
      module: IdentityAppModule,
      imports: [
        ServiceKitModule.forService({
          ...identityDbOptions(options.config),
          eventBus: options.eventBus,
          http: options.http,
          streams: ['IDENTITY'],
          outbox: true,
        }),
        AuditClientModule.forService('identity'),
      ],
      controllers: [SignedFilesController, AccountController, SessionController, PasswordController, ProfileController, ProviderController, JwksController, ProfilePictureController, FamilyController, FamilyClaimsController],
      providers: [
        { provide: IdentityConfig, useValue: options.config },
        { provide: GOOGLE_VERIFIER, useValue: createGoogleVerifier(options.config) },
        { provide: OIDC_PROVIDERS, useValue: createOidcProviders(options.config) },
        { provide: BLOB_STORAGE, useFactory: () => createStorageFor(options.config) },
        // This service serves its own download links (GET /internal/files/..., passed on by the gateway).
        ...signedFilesProviders({ ownPrefixes: [PROFILE_PICTURE_KEY_PREFIX], config: options.config }),
        { provide: LICENSE_VERIFIER, useValue: new NpiRegistryRepository(options.config.npiRegistryUrl, options.config.npiRegistryTimeoutMs) },
        PasswordHasher,
        UsersRepository,
        ProviderLicensesRepository,
        ProfilePicturesRepository,
        ProviderAccountsRepository,
        LicenseService,
        LicenseReviewService,
        OtpRepository,
        SessionsRepository,
        PasswordResetsRepository,
        AuthFailuresRepository,
        KeysRepository,
        NotificationsRepository,
        BruteForceService,
        TokenService,
        AccountService,
        SessionService,
        OidcSignInService,
        PasswordService,
        ProfileService,
        { provide: FAMILY_CLOCK, useValue: SYSTEM_CLOCK },
        FamilyRepository,
        PlansRepository,
        FamilyService,
        FamilyClaimsRepository,
        FamilyClaimsService,
        FamilyReminders,
      ],
    };
  }
}
