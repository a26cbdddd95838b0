import { emptyApi as api } from './empty-api';
export const addTagTypes = [
  'health',
  'accounts',
  'profile',
  'history',
  'documents',
  'summary',
  'contact',
  'web',
] as const;
const injectedRtkApi = api
  .enhanceEndpoints({
    addTagTypes,
  })
  .injectEndpoints({
    endpoints: (build) => ({
      healthGet: build.query<HealthGetApiResponse, HealthGetApiArg>({
        query: () => ({ url: `/api/health/` }),
        providesTags: ['health'],
      }),
      authRegister: build.mutation<AuthRegisterApiResponse, AuthRegisterApiArg>({
        query: (queryArg) => ({ url: `/api/register/`, method: 'POST', body: queryArg.registerBodyDoc }),
        invalidatesTags: ['accounts'],
      }),
      authVerifyOtp: build.mutation<AuthVerifyOtpApiResponse, AuthVerifyOtpApiArg>({
        query: (queryArg) => ({ url: `/api/verify-otp/`, method: 'POST', body: queryArg.verifyOtpBodyDoc }),
        invalidatesTags: ['accounts'],
      }),
      authResendOtp: build.mutation<AuthResendOtpApiResponse, AuthResendOtpApiArg>({
        query: (queryArg) => ({ url: `/api/resend-otp/`, method: 'POST', body: queryArg.emailBodyDoc }),
        invalidatesTags: ['accounts'],
      }),
      authLogin: build.mutation<AuthLoginApiResponse, AuthLoginApiArg>({
        query: (queryArg) => ({ url: `/api/login/`, method: 'POST', body: queryArg.loginBodyDoc }),
        invalidatesTags: ['accounts'],
      }),
      authLoginWithGoogle: build.mutation<AuthLoginWithGoogleApiResponse, AuthLoginWithGoogleApiArg>({
        query: (queryArg) => ({ url: `/api/login-with-google/`, method: 'POST', body: queryArg.googleLoginBodyDoc }),
        invalidatesTags: ['accounts'],
      }),
      authRefresh: build.mutation<AuthRefreshApiResponse, AuthRefreshApiArg>({
        query: (queryArg) => ({ url: `/api/token/refresh/`, method: 'POST', body: queryArg.refreshBodyDoc }),
        invalidatesTags: ['accounts'],
      }),
      authLogout: build.mutation<AuthLogoutApiResponse, AuthLogoutApiArg>({
        query: (queryArg) => ({ url: `/api/logout/`, method: 'POST', body: queryArg.logoutBodyDoc }),
        invalidatesTags: ['accounts'],
      }),
      authForgot: build.mutation<AuthForgotApiResponse, AuthForgotApiArg>({
        query: (queryArg) => ({ url: `/api/forgot-password/`, method: 'POST', body: queryArg.emailBodyDoc }),
        invalidatesTags: ['accounts'],
      }),
      authReset: build.mutation<AuthResetApiResponse, AuthResetApiArg>({
        query: (queryArg) => ({ url: `/api/reset-password/`, method: 'POST', body: queryArg.resetPasswordBodyDoc }),
        invalidatesTags: ['accounts'],
      }),
      profileGet: build.query<ProfileGetApiResponse, ProfileGetApiArg>({
        query: () => ({ url: `/api/profile/` }),
        providesTags: ['profile'],
      }),
      profileUpdate: build.mutation<ProfileUpdateApiResponse, ProfileUpdateApiArg>({
        query: (queryArg) => ({ url: `/api/profile/`, method: 'PUT', body: queryArg.updateProfileBodyDoc }),
        invalidatesTags: ['profile'],
      }),
      profileChangePassword: build.mutation<ProfileChangePasswordApiResponse, ProfileChangePasswordApiArg>({
        query: (queryArg) => ({ url: `/api/change/password/`, method: 'PUT', body: queryArg.changePasswordBodyDoc }),
        invalidatesTags: ['profile'],
      }),
      profilePictureUploadUpload: build.mutation<
        ProfilePictureUploadUploadApiResponse,
        ProfilePictureUploadUploadApiArg
      >({
        query: (queryArg) => ({ url: `/api/profile/picture/`, method: 'POST', body: queryArg.body }),
        invalidatesTags: ['profile'],
      }),
      historyList: build.query<HistoryListApiResponse, HistoryListApiArg>({
        query: (queryArg) => ({
          url: `/api/history/`,
          params: {
            page_size: queryArg.pageSize,
            page: queryArg.page,
          },
        }),
        providesTags: ['history'],
      }),
      documentsUpload: build.mutation<DocumentsUploadApiResponse, DocumentsUploadApiArg>({
        query: (queryArg) => ({ url: `/api/upload/`, method: 'POST', body: queryArg.body }),
        invalidatesTags: ['documents'],
      }),
      documentsList: build.query<DocumentsListApiResponse, DocumentsListApiArg>({
        query: () => ({ url: `/api/upload/` }),
        providesTags: ['documents'],
      }),
      documentsDelete: build.mutation<DocumentsDeleteApiResponse, DocumentsDeleteApiArg>({
        query: (queryArg) => ({ url: `/api/upload/`, method: 'DELETE', body: queryArg.deleteDocumentBodyDoc }),
        invalidatesTags: ['documents'],
      }),
      documentsDownloadLink: build.query<DocumentsDownloadLinkApiResponse, DocumentsDownloadLinkApiArg>({
        query: (queryArg) => ({ url: `/api/get-document-download-link/${queryArg.documentId}/` }),
        providesTags: ['documents'],
      }),
      summaryGet: build.query<SummaryGetApiResponse, SummaryGetApiArg>({
        query: (queryArg) => ({
          url: `/api/summary/`,
          params: {
            user: queryArg.user,
          },
        }),
        providesTags: ['summary'],
      }),
      summaryHide: build.mutation<SummaryHideApiResponse, SummaryHideApiArg>({
        query: (queryArg) => ({
          url: `/api/summary/facts/${queryArg.factId}/hide/`,
          method: 'POST',
          body: queryArg.hideFactBodyDoc,
        }),
        invalidatesTags: ['summary'],
      }),
      summaryEdit: build.mutation<SummaryEditApiResponse, SummaryEditApiArg>({
        query: (queryArg) => ({
          url: `/api/summary/facts/${queryArg.factId}/`,
          method: 'PUT',
          body: queryArg.editFactBodyDoc,
        }),
        invalidatesTags: ['summary'],
      }),
      summaryRemove: build.mutation<SummaryRemoveApiResponse, SummaryRemoveApiArg>({
        query: (queryArg) => ({ url: `/api/summary/facts/${queryArg.factId}/`, method: 'DELETE' }),
        invalidatesTags: ['summary'],
      }),
      summaryAdd: build.mutation<SummaryAddApiResponse, SummaryAddApiArg>({
        query: (queryArg) => ({ url: `/api/summary/facts/`, method: 'POST', body: queryArg.addFactBodyDoc }),
        invalidatesTags: ['summary'],
      }),
      summaryConfirm: build.mutation<SummaryConfirmApiResponse, SummaryConfirmApiArg>({
        query: (queryArg) => ({ url: `/api/summary/confirm/`, method: 'POST', body: queryArg.confirmSummaryBodyDoc }),
        invalidatesTags: ['summary'],
      }),
      contactSubmit: build.mutation<ContactSubmitApiResponse, ContactSubmitApiArg>({
        query: (queryArg) => ({ url: `/api/contact/`, method: 'POST', body: queryArg.contactMessageDoc }),
        invalidatesTags: ['contact'],
      }),
      clientConfigGet: build.query<ClientConfigGetApiResponse, ClientConfigGetApiArg>({
        query: () => ({ url: `/api/client-config/` }),
        providesTags: ['web'],
      }),
    }),
    overrideExisting: false,
  });
export { injectedRtkApi as medfolioApi };
export type HealthGetApiResponse = unknown;
export type HealthGetApiArg = void;
export type AuthRegisterApiResponse = /** status 201  */ MessageDoc;
export type AuthRegisterApiArg = {
  registerBodyDoc: RegisterBodyDoc;
};
export type AuthVerifyOtpApiResponse = /** status 200  */ VerifyOtpDoc;
export type AuthVerifyOtpApiArg = {
  verifyOtpBodyDoc: VerifyOtpBodyDoc;
};
export type AuthResendOtpApiResponse = /** status 200  */ MessageDoc;
export type AuthResendOtpApiArg = {
  emailBodyDoc: EmailBodyDoc;
};
export type AuthLoginApiResponse = /** status 200  */ TokenPairDoc;
export type AuthLoginApiArg = {
  loginBodyDoc: LoginBodyDoc;
};
export type AuthLoginWithGoogleApiResponse = /** status 200  */ TokenPairDoc;
export type AuthLoginWithGoogleApiArg = {
  googleLoginBodyDoc: GoogleLoginBodyDoc;
};
export type AuthRefreshApiResponse = /** status 200  */ TokenPairDoc;
export type AuthRefreshApiArg = {
  refreshBodyDoc: RefreshBodyDoc;
};
export type AuthLogoutApiResponse = /** status 200  */ MessageDoc;
export type AuthLogoutApiArg = {
  logoutBodyDoc: LogoutBodyDoc;
};
export type AuthForgotApiResponse = /** status 200  */ ForgotPasswordDoc;
export type AuthForgotApiArg = {
  emailBodyDoc: EmailBodyDoc;
};
export type AuthResetApiResponse = /** status 200  */ MessageDoc;
export type AuthResetApiArg = {
  resetPasswordBodyDoc: ResetPasswordBodyDoc;
};
export type ProfileGetApiResponse = /** status 200  */ ProfileDoc;
export type ProfileGetApiArg = void;
export type ProfileUpdateApiResponse = /** status 200  */ ProfileDoc;
export type ProfileUpdateApiArg = {
  updateProfileBodyDoc: UpdateProfileBodyDoc;
};
export type ProfileChangePasswordApiResponse = /** status 200  */ ChangePasswordReplyDoc;
export type ProfileChangePasswordApiArg = {
  changePasswordBodyDoc: ChangePasswordBodyDoc;
};
export type ProfilePictureUploadUploadApiResponse =
  /** status 200 The updated profile, with the new picture URL */ ProfileDoc;
export type ProfilePictureUploadUploadApiArg = {
  body: {
    picture: Blob;
  };
};
export type HistoryListApiResponse = /** status 200  */ HistoryPageDoc;
export type HistoryListApiArg = {
  /** Entries per page, 1 to 100 (default 20) */
  pageSize?: number;
  /** Page number, from 1 */
  page?: number;
};
export type DocumentsUploadApiResponse = /** status 201  */ UploadReplyDoc;
export type DocumentsUploadApiArg = {
  body: {
    /** One entry per file */
    files: Blob[];
  };
};
export type DocumentsListApiResponse = /** status 200  */ DocumentItemDoc[];
export type DocumentsListApiArg = void;
export type DocumentsDeleteApiResponse = /** status 200  */ MessageDoc;
export type DocumentsDeleteApiArg = {
  deleteDocumentBodyDoc: DeleteDocumentBodyDoc;
};
export type DocumentsDownloadLinkApiResponse = /** status 200  */ DownloadLinkDoc;
export type DocumentsDownloadLinkApiArg = {
  documentId: string;
};
export type SummaryGetApiResponse = /** status 200  */ SummaryItemDoc[];
export type SummaryGetApiArg = {
  /** The patient's user id */
  user: string;
};
export type SummaryHideApiResponse = /** status 200 The summary, as a new version */ SummaryItemDoc;
export type SummaryHideApiArg = {
  /** A fact id from the summary */
  factId: string;
  hideFactBodyDoc: HideFactBodyDoc;
};
export type SummaryEditApiResponse = /** status 200 The summary, as a new version */ SummaryItemDoc;
export type SummaryEditApiArg = {
  /** A fact id from the summary */
  factId: string;
  editFactBodyDoc: EditFactBodyDoc;
};
export type SummaryRemoveApiResponse = /** status 200 The summary, as a new version */ SummaryItemDoc;
export type SummaryRemoveApiArg = {
  /** A fact id from the summary */
  factId: string;
};
export type SummaryAddApiResponse = /** status 200 The summary, as a new version */ SummaryItemDoc;
export type SummaryAddApiArg = {
  addFactBodyDoc: AddFactBodyDoc;
};
export type SummaryConfirmApiResponse = /** status 200 The summary, with confirmed_version set */ SummaryItemDoc;
export type SummaryConfirmApiArg = {
  confirmSummaryBodyDoc: ConfirmSummaryBodyDoc;
};
export type ContactSubmitApiResponse = /** status 200  */ ContactReplyDoc;
export type ContactSubmitApiArg = {
  contactMessageDoc: ContactMessageDoc;
};
export type ClientConfigGetApiResponse = /** status 200  */ ClientConfigDoc;
export type ClientConfigGetApiArg = void;
export type MessageDoc = {
  message: string;
};
export type RegisterBodyDoc = {
  first_name: string;
  last_name?: string;
  phone: string;
  email: string;
  password: string;
  /** YYYY-MM-DD, a real date, not in the future */
  date_of_birth: string;
};
export type VerifyOtpDoc = {
  message: string;
  /** Present when this call verified the address: the new sign-in (as POST /api/login/ answers) */
  access?: string;
  refresh?: string;
};
export type VerifyOtpBodyDoc = {
  email: string;
  /** The 4-digit code from the e-mail */
  otp: string;
};
export type EmailBodyDoc = {
  email: string;
};
export type TokenPairDoc = {
  /** ES256 JWT, valid 15 minutes; send as `Authorization: Bearer <access>` */
  access: string;
  /** Opaque, single use: exchange at POST /api/token/refresh/ for a new pair */
  refresh: string;
};
export type LoginBodyDoc = {
  email: string;
  password: string;
};
export type GoogleLoginBodyDoc = {
  /** A Google ID token (credential) or OAuth access token */
  token: string;
};
export type RefreshBodyDoc = {
  refresh: string;
};
export type LogoutBodyDoc = {
  /** The refresh token of the sign-in to end (else the one of the access token) */
  refresh?: string;
};
export type ForgotPasswordDoc = {
  message: string;
  /** Always null: the reset secret is only ever e-mailed */
  token: string | null;
};
export type ResetPasswordBodyDoc = {
  email: string;
  password: string;
  /** The token from the e-mailed /reset-password/{email}/{token} link */
  token: string;
};
export type ProfileDoc = {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  /** URL of the 400x400 picture, or null */
  profile_picture: string | null;
  date_of_birth: string | null;
  email_verified: boolean;
};
export type UpdateProfileBodyDoc = {
  first_name: string;
  last_name?: string;
  phone: string;
};
export type ChangePasswordReplyDoc = {
  message: string;
  detail: string;
};
export type ChangePasswordBodyDoc = {
  old_password: string;
  new_password: string;
};
export type HistoryEntryDoc = {
  id: string;
  when: string;
  /** 'you', another user's id, 'anonymous' or 'someone with your shared link' */
  who: string;
  action: string;
  what: string;
  outcome: 'success' | 'failure' | 'denied';
  from: string | null;
  user_agent: string | null;
  /** What was touched: 'document', 'session', 'user', ... */
  entity_type: string;
  /** Its id; for a document, the patient finds its name in GET /api/upload/ */
  entity_id: string | null;
  /** Why a failure or refusal happened; null on success */
  reason: string | null;
};
export type HistoryPageDoc = {
  results: HistoryEntryDoc[];
  page: number;
  page_size: number;
  total: number;
};
export type DocumentItemDoc = {
  id: string;
  /** The uploaded name, made safe for display */
  filename: string;
  /** A short-lived URL (15 minutes) of a WebP thumbnail of at most 256x256 for jpg and png documents, once it is made (a moment after upload); null for other types */
  url: string | null;
  uploaded_at: string;
  /** Bytes */
  size: number;
  /** Decided from the content at upload, not from the name or the declared type */
  content_type:
    | 'application/pdf'
    | 'image/jpeg'
    | 'image/png'
    | 'application/msword'
    | 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
    | 'application/zip'
    | 'application/xml'
    | 'application/fhir+json';
};
export type UploadReplyDoc = {
  message: string;
  /** One download link per stored document, in upload order, valid 5 minutes */
  image_urls: string[];
  /** The first of image_urls */
  image_url: string | null;
  /** The stored documents, as GET /api/upload/ lists them */
  documents: DocumentItemDoc[];
};
export type ErrorDoc = {
  message: string;
  code: string;
};
export type DeleteDocumentBodyDoc = {
  /** The id of one of your documents */
  document_id: string;
};
export type DownloadLinkDoc = {
  /** Valid 5 minutes; answers with Content-Disposition: attachment and X-Content-Type-Options: nosniff (the filesystem store); open it in a new tab */
  download_url: string;
  filename: string;
  expires_at: string;
};
export type SummaryCodeDoc = {
  system: string;
  code: string;
  display?: string;
};
export type SummarySourceDoc = {
  document_id: string;
  filename: string;
  /** 1-based page; null where the document has no pages */
  page: number | null;
  /** The source text the fact was read from (at most 200 characters) */
  quote: string;
};
export type SummaryFactDoc = {
  /** Stable across rebuilds while the fact is the same (section + normalised name), so review changes survive */
  id: string;
  text: string;
  category:
    'condition' | 'medication' | 'allergy' | 'immunization' | 'procedure' | 'result' | 'vital' | 'care_team' | 'note';
  status: ('active' | 'resolved' | 'stopped' | 'unknown') | null;
  /** ISO 8601, possibly partial */
  onset: string | null;
  end: string | null;
  code: SummaryCodeDoc | null;
  details: {
    [key: string]: string;
  } | null;
  certainty: ('confirmed' | 'possible') | null;
  /** Hidden by the patient: shown to the owner, marked; left out of the text and of shares */
  hidden: boolean;
  /** Text corrected by the patient (the original is kept) */
  edited: boolean;
  /** Added by the patient (no sources) */
  added_by_patient: boolean;
  sources: SummarySourceDoc[];
};
export type SummaryNoneKnownDoc = {
  text: string;
  sources: SummarySourceDoc[];
};
export type SummarySectionDoc = {
  key: 'current_conditions' | 'past_history' | 'medications' | 'allergies' | 'additional';
  title: string;
  state: 'facts' | 'none_known' | 'not_recorded';
  facts: SummaryFactDoc[];
  none_known: SummaryNoneKnownDoc | null;
};
export type SummaryDocumentDoc = {
  document_id: string;
  filename: string;
  state: 'pending' | 'processing' | 'read' | 'unreadable';
  /** Reasons shown to the patient */
  problems: string[];
};
export type SummaryItemDoc = {
  /** The summary text: five sections with bold headings (hidden facts left out, corrected text used) */
  summary: string;
  /** processing: documents are being read or the summary is being rebuilt */
  status: 'empty' | 'processing' | 'ready';
  /** The latest built version; 0 when nothing was built yet */
  version: number;
  /** The version the patient confirmed */
  confirmed_version: number | null;
  updated_at: string;
  sections: SummarySectionDoc[];
  documents: SummaryDocumentDoc[];
};
export type HideFactBodyDoc = {
  hidden: boolean;
};
export type EditFactBodyDoc = {
  text: string;
};
export type AddFactBodyDoc = {
  section: 'current_conditions' | 'past_history' | 'medications' | 'allergies' | 'additional';
  text: string;
};
export type ConfirmSummaryBodyDoc = {
  /** Must be the latest version */
  version: number;
};
export type ContactReplyDoc = {
  message: string;
};
export type ContactMessageDoc = {
  firstname: string;
  lastname: string;
  email: string;
  message: string;
};
export type ClientConfigDoc = {
  /** OAuth client id for Google sign-in; null when it is not configured */
  google_client_id: string | null;
  google_authorization_url: string;
};
export const {
  useHealthGetQuery,
  useAuthRegisterMutation,
  useAuthVerifyOtpMutation,
  useAuthResendOtpMutation,
  useAuthLoginMutation,
  useAuthLoginWithGoogleMutation,
  useAuthRefreshMutation,
  useAuthLogoutMutation,
  useAuthForgotMutation,
  useAuthResetMutation,
  useProfileGetQuery,
  useProfileUpdateMutation,
  useProfileChangePasswordMutation,
  useProfilePictureUploadUploadMutation,
  useHistoryListQuery,
  useDocumentsUploadMutation,
  useDocumentsListQuery,
  useDocumentsDeleteMutation,
  useDocumentsDownloadLinkQuery,
  useSummaryGetQuery,
  useSummaryHideMutation,
  useSummaryEditMutation,
  useSummaryRemoveMutation,
  useSummaryAddMutation,
  useSummaryConfirmMutation,
  useContactSubmitMutation,
  useClientConfigGetQuery,
} = injectedRtkApi;
