import type { HistoryPage } from '../audit';
import type { AuthorizeReply, ConnectionView, DeletedReply, EndpointView, JwksReply } from '../connections';
import type { ReceiveShlReply } from '../connections-shl';
import type { CheckoutReply, MembershipView, PlansReply, ReferralView, WebhookReply } from '../billing';
import type { DocumentListItem, DownloadLinkReply, UploadReply } from '../documents';
import type { ErrorPayload } from '../errors';
import type { FamilyInvite, FamilyInvitePreview, FamilyMember, FamilyOverview, FamilyRecord, FamilyRemovalReply } from '../family';
import type { FamilyAssent, FamilyClaimInvite, FamilyClaimPreview } from '../family-teens';
import type {
  ChangePasswordReply,
  ForgotPasswordReply,
  MessageReply,
  OidcProvidersReply,
  Profile,
  TokenPair,
  VerifyOtpReply,
} from '../identity';
import type { ContactReply } from '../notifications';
import type {
  DisputeLicenseReply,
  PatientAccessReply,
  ProviderFacts,
  ProviderPatientItem,
  RequestAccessReply,
  VerifyLicenseReply,
} from '../providers';
import type { FhirBundle, ShlManifestReply } from '../share-formats';
import type { ShareLinkItem, ShareLinkUnlockReply } from '../sharing';
import type { SummaryItem, SummaryStatusReply } from '../summary';
import type { TrendsReply } from '../trends';
import type { PassStatus, PassUrlReply, PassView } from '../wallet';

/** Every error answer of the API: `message` is safe to show to the person; `code` is for programs. */
export type ErrorReply = ErrorPayload;

/** A wrong SMART Health Link passcode: the SHL spec's `remainingAttempts` next to the usual error. */
export interface ShlRemainingAttemptsReply extends ErrorPayload {
  remainingAttempts: number;
}

/** POST /api/register/: the message, and the address the code went to (as the account will know it). */
export interface RegisterReply extends MessageReply {
  email: string;
}

/** One part's readiness: `ok` when every check it runs is up. */
export interface ReadinessReply {
  status: 'ok' | 'unavailable';
  checks: Record<string, 'up' | 'down'>;
}

/** GET /api/health/: the gateway's readiness and that of every service behind it. */
export interface SystemHealthReply {
  status: 'ok' | 'unavailable';
  gateway: ReadinessReply;
  services: Record<string, ReadinessReply>;
}

/** GET /api/client-config/: the public settings the web app needs at run time (no secrets). */
export interface ClientConfigReply {
  /** OAuth client id for Google sign-in; null when it is not configured. */
  google_client_id: string | null;
  /** Where the browser is sent to sign in with Google. */
  google_authorization_url: string;
  /** Whether 'Save to Google Wallet' is offered. */
  google_wallet: boolean;
  /** Stripe.js's publishable key; null when card payments are not set up (no Stripe.js is loaded). */
  stripe_publishable_key: string | null;
}

/** PassKit's list of updated passes for a device. */
export interface PassKitSerialsReply {
  serialNumbers: string[];
  lastUpdated: string;
}

/**
 * The shapes the API answers with, by name: the names the OpenAPI document's components and the
 * route table use. Add a reply type here to use it in a route.
 */
export interface ApiShapes {
  ErrorReply: ErrorReply;
  MessageReply: MessageReply;
  RegisterReply: RegisterReply;
  VerifyOtpReply: VerifyOtpReply;
  TokenPair: TokenPair;
  OidcProvidersReply: OidcProvidersReply;
  ForgotPasswordReply: ForgotPasswordReply;
  Profile: Profile;
  ChangePasswordReply: ChangePasswordReply;
  HistoryPage: HistoryPage;
  DocumentListItem: DocumentListItem;
  DownloadLinkReply: DownloadLinkReply;
  UploadReply: UploadReply;
  SummaryItem: SummaryItem;
  SummaryStatusReply: SummaryStatusReply;
  ShareLinkUnlockReply: ShareLinkUnlockReply;
  ShareLinkItem: ShareLinkItem;
  FhirBundle: FhirBundle;
  ShlManifestReply: ShlManifestReply;
  ShlRemainingAttemptsReply: ShlRemainingAttemptsReply;
  PassUrlReply: PassUrlReply;
  PassStatus: PassStatus;
  PassView: PassView;
  PassKitSerialsReply: PassKitSerialsReply;
  VerifyLicenseReply: VerifyLicenseReply;
  DisputeLicenseReply: DisputeLicenseReply;
  ProviderFacts: ProviderFacts;
  RequestAccessReply: RequestAccessReply;
  PatientAccessReply: PatientAccessReply;
  ProviderPatientItem: ProviderPatientItem;
  PlansReply: PlansReply;
  MembershipView: MembershipView;
  CheckoutReply: CheckoutReply;
  WebhookReply: WebhookReply;
  ReferralView: ReferralView;
  ContactReply: ContactReply;
  SystemHealthReply: SystemHealthReply;
  ClientConfigReply: ClientConfigReply;
  TrendsReply: TrendsReply;
  EndpointView: EndpointView;
  AuthorizeReply: AuthorizeReply;
  ConnectionView: ConnectionView;
  DeletedReply: DeletedReply;
  JwksReply: JwksReply;
  ReceiveShlReply: ReceiveShlReply;
  FamilyOverview: FamilyOverview;
  FamilyRecord: FamilyRecord;
  FamilyMember: FamilyMember;
  FamilyInvite: FamilyInvite;
  FamilyInvitePreview: FamilyInvitePreview;
  FamilyClaimInvite: FamilyClaimInvite;
  FamilyClaimPreview: FamilyClaimPreview;
  FamilyAssent: FamilyAssent;
  FamilyRemovalReply: FamilyRemovalReply;
}
