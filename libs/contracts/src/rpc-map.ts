import type { HistoryPage, HistoryQueryDto } from './audit';
import type { DeleteDocumentDto, DocumentIdDto, DocumentListItem, DownloadLinkReply } from './documents';
import { type DOCUMENTS_SUBJECTS } from './documents';
import type {
  ChangePasswordDto,
  ChangePasswordReply,
  EmailDto,
  ForgotPasswordReply,
  GoogleLoginDto,
  OidcLoginDto,
  OidcProvidersReply,
  LoginDto,
  LogoutDto,
  LogoutReply,
  MessageReply,
  PatientIdentity,
  PatientIdentityDto,
  Profile,
  RefreshDto,
  RegisterDto,
  ResetPasswordDto,
  RevokedSessions,
  TokenPair,
  UpdateProfileDto,
  VerifyOtpDto,
} from './identity';
import { type IDENTITY_SERVICE_SUBJECTS, type IDENTITY_SUBJECTS } from './identity';
import type { ContactMessageDto, ContactReply, DevMailEntry, SendEmailDto, SendEmailReply } from './notifications';
import { type NOTIFICATIONS_SUBJECTS } from './notifications';
import { type SUBJECTS, type ServiceName } from './subjects';
import type { ConnectionsRpc } from './connections';
import type { FamilyRpc } from './family';
import type { FamilyTeensRpc } from './family-teens';
import type { ConnectionsShlRpc } from './connections-shl';
import type { ProvidersRpc } from './providers';
import type { ShareFormatsRpc } from './share-formats';
import type { WalletRpc } from './wallet';
import type { BillingRpc } from './billing';
import type { SharingRpc } from './sharing';
import type { SummaryRpc } from './summary';
import type { TrendsRpc } from './trends';

/**
 * Every request/reply subject with what it takes and what it answers. `RpcClient.send` and the
 * handlers' `@Handles` decorator are typed from it, so a wrong payload or reply is a compile error.
 * A new service adds its own interface below and to `RpcMap`'s `extends` list.
 */

/** The payload of a call that carries none (`{}`): the handler takes only the caller. */
export type NoPayload = Record<string, never>;

/** One subject: what it takes and what it answers. */
export interface RpcShape<Request, Reply> {
  request: Request;
  reply: Reply;
}

/** `<service>.health.check`: the readiness report every service answers (observability's ReadinessReport). */
export interface HealthReply {
  status: 'ok' | 'unavailable';
  checks: Record<string, 'up' | 'down'>;
}

export type HealthRpc = { [S in `${ServiceName}.health.check`]: RpcShape<NoPayload, HealthReply> };

export interface AuditRpc {
  [SUBJECTS.audit.historyList]: RpcShape<HistoryQueryDto, HistoryPage>;
}

export interface IdentityRpc {
  [IDENTITY_SUBJECTS.register]: RpcShape<RegisterDto, MessageReply & { email: string }>;
  [IDENTITY_SUBJECTS.verifyOtp]: RpcShape<VerifyOtpDto, MessageReply>;
  [IDENTITY_SUBJECTS.resendOtp]: RpcShape<EmailDto, MessageReply>;
  [IDENTITY_SUBJECTS.login]: RpcShape<LoginDto, TokenPair>;
  [IDENTITY_SUBJECTS.loginWithGoogle]: RpcShape<GoogleLoginDto, TokenPair>;
  [IDENTITY_SUBJECTS.oidcProviders]: RpcShape<NoPayload, OidcProvidersReply>;
  [IDENTITY_SUBJECTS.loginWithOidc]: RpcShape<OidcLoginDto, TokenPair>;
  [IDENTITY_SUBJECTS.refresh]: RpcShape<RefreshDto, TokenPair>;
  [IDENTITY_SUBJECTS.logout]: RpcShape<LogoutDto, LogoutReply>;
  [IDENTITY_SUBJECTS.forgotPassword]: RpcShape<EmailDto, ForgotPasswordReply>;
  [IDENTITY_SUBJECTS.resetPassword]: RpcShape<ResetPasswordDto, MessageReply & RevokedSessions>;
  [IDENTITY_SUBJECTS.changePassword]: RpcShape<ChangePasswordDto, ChangePasswordReply & RevokedSessions>;
  [IDENTITY_SUBJECTS.getProfile]: RpcShape<NoPayload, Profile>;
  [IDENTITY_SUBJECTS.updateProfile]: RpcShape<UpdateProfileDto, Profile>;
  [IDENTITY_SERVICE_SUBJECTS.patientIdentity]: RpcShape<PatientIdentityDto, PatientIdentity>;
}

export interface DocumentsRpc {
  [DOCUMENTS_SUBJECTS.list]: RpcShape<NoPayload, DocumentListItem[]>;
  [DOCUMENTS_SUBJECTS.delete]: RpcShape<DeleteDocumentDto, MessageReply>;
  [DOCUMENTS_SUBJECTS.downloadLink]: RpcShape<DocumentIdDto, DownloadLinkReply>;
}

export interface NotificationsRpc {
  [NOTIFICATIONS_SUBJECTS.sendEmail]: RpcShape<SendEmailDto, SendEmailReply>;
  [NOTIFICATIONS_SUBJECTS.submitContact]: RpcShape<ContactMessageDto, ContactReply>;
  [NOTIFICATIONS_SUBJECTS.listDevMail]: RpcShape<NoPayload, DevMailEntry[]>;
}

/** The whole map. Generated services add their `<Name>Rpc` here. */
export interface RpcMap extends HealthRpc, AuditRpc, IdentityRpc, DocumentsRpc, NotificationsRpc, SummaryRpc, SharingRpc, ShareFormatsRpc, WalletRpc, ProvidersRpc, BillingRpc, TrendsRpc, ConnectionsRpc, ConnectionsShlRpc, FamilyRpc, FamilyTeensRpc {}

export type RpcSubject = keyof RpcMap & string;
export type RpcRequest<S extends RpcSubject> = RpcMap[S]['request'];
export type RpcReply<S extends RpcSubject> = RpcMap[S]['reply'];
