import { IsOptional, IsString, Matches } from 'class-validator';
import { Env, HttpUrl, StorageAwareConfig, WholeNumber, WithInternalHttp, WithPublicUrl } from '@medfolio/config';

const PEM = /-----BEGIN [A-Z ]+-----/;

/**
 * The wallet service's settings. Apple: the pass type id and team id of the pass type certificate,
 * the certificate and its key (PEM) and Apple's WWDR intermediate certificate (PEM); all three unset:
 * a self-signed development chain is made once and kept in DATA_DIR/wallet (iPhones refuse it: only
 * Apple-issued certificates install). APNs (token-based, a .p8 key) tells devices a pass changed;
 * unset, devices see the change on their next fetch. Google Wallet: an issuer id and a service
 * account's JSON key; unset, no Google button.
 */
export class WalletConfig extends WithPublicUrl(WithInternalHttp(StorageAwareConfig)) {
  /** The pass type identifier (the certificate's UID), e.g. pass.com.example.health-card. */
  @Env('WALLET_PASS_TYPE_ID')
  @Matches(/^[A-Za-z0-9._-]{1,200}$/, { message: 'must be a pass type identifier such as pass.com.example.card' })
  passTypeIdentifier = 'pass.dev.medfolio.health-card';

  /** The Apple Developer team identifier (the certificate's OU). */
  @Env('WALLET_TEAM_ID')
  @Matches(/^[A-Z0-9]{1,20}$/, { message: 'must be an Apple team identifier (capital letters and digits)' })
  teamIdentifier = 'MEDFOLIODEV';

  /** The name shown as the pass's issuer. */
  @Env('WALLET_ORGANIZATION_NAME')
  @IsString()
  organizationName = 'Medfolio';

  /** The pass type certificate (PEM). */
  @Env('WALLET_SIGNER_CERT', { sensitive: true })
  @IsOptional()
  @Matches(PEM, { message: 'must be a PEM certificate' })
  signerCert?: string;

  /** The pass type certificate's private key (PEM). */
  @Env('WALLET_SIGNER_KEY', { sensitive: true })
  @IsOptional()
  @Matches(PEM, { message: 'must be a PEM private key' })
  signerKey?: string;

  @Env('WALLET_SIGNER_KEY_PASSPHRASE', { sensitive: true })
  @IsOptional()
  @IsString()
  signerKeyPassphrase?: string;

  /** Apple's WWDR intermediate certificate (PEM; G4 for pass type certificates made today). */
  @Env('WALLET_WWDR_CERT', { sensitive: true })
  @IsOptional()
  @Matches(PEM, { message: 'must be a PEM certificate' })
  wwdrCert?: string;

  /** Where the PassKit web service is reached (Apple appends v1/...). Empty: PUBLIC_BASE_URL + /api/passkit/. */
  @Env('WALLET_WEB_SERVICE_URL')
  @IsOptional()
  @HttpUrl()
  webServiceUrl?: string;

  /** How long a pass download link stays valid, in seconds. */
  @Env('WALLET_DOWNLOAD_LINK_SECONDS')
  @WholeNumber(10, 3600)
  downloadLinkSeconds = 300;

  /** APNs: the .p8 key's id (10 characters). */
  @Env('APNS_KEY_ID')
  @IsOptional()
  @Matches(/^[A-Z0-9]{10}$/, { message: 'must be the 10-character key id of the .p8 key' })
  apnsKeyId?: string;

  /** APNs: the team id that owns the key. */
  @Env('APNS_TEAM_ID')
  @IsOptional()
  @Matches(/^[A-Z0-9]{10}$/, { message: 'must be a 10-character Apple team id' })
  apnsTeamId?: string;

  /** APNs: the .p8 key's contents (PEM, an EC P-256 key). */
  @Env('APNS_KEY', { sensitive: true })
  @IsOptional()
  @Matches(PEM, { message: 'must be the PEM contents of the .p8 key' })
  apnsKey?: string;

  /** APNs: the server (production; a local stand-in in tests). */
  @Env('APNS_HOST')
  @HttpUrl()
  apnsHost = 'https://api.push.apple.com';

  /** APNs: an extra CA (PEM) to trust for APNS_HOST (tests' stand-in). */
  @Env('APNS_CA')
  @IsOptional()
  @Matches(PEM, { message: 'must be a PEM certificate' })
  apnsCa?: string;

  /** Google Wallet: the issuer id (digits). */
  @Env('GOOGLE_WALLET_ISSUER_ID')
  @IsOptional()
  @Matches(/^\d{5,25}$/, { message: 'must be the Google Wallet issuer id (digits)' })
  googleWalletIssuerId?: string;

  /** Google Wallet: the service account's JSON key (client_email, private_key). */
  @Env('GOOGLE_WALLET_SERVICE_ACCOUNT', { sensitive: true })
  @IsOptional()
  @Matches(/"private_key"/, { message: "must be a service account's JSON key" })
  googleWalletServiceAccount?: string;
}
