import { emptyApi as api } from './empty-api';
export const addTagTypes = [
  'health',
  'accounts',
  'profile',
  'history',
  'documents',
  'summary',
  'sharing',
  'wallet',
  'Providers',
  'billing',
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
      authOidcProviders: build.query<AuthOidcProvidersApiResponse, AuthOidcProvidersApiArg>({
        query: () => ({ url: `/api/login-with-oidc/providers/` }),
        providesTags: ['accounts'],
      }),
      authLoginWithOidc: build.mutation<AuthLoginWithOidcApiResponse, AuthLoginWithOidcApiArg>({
        query: (queryArg) => ({
          url: `/api/login-with-oidc/${queryArg.provider}/`,
          method: 'POST',
          body: queryArg.oidcLoginBodyDoc,
        }),
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
            view_token: queryArg.viewToken,
            user: queryArg.user,
          },
        }),
        providesTags: ['summary'],
      }),
      summaryStatus: build.query<SummaryStatusApiResponse, SummaryStatusApiArg>({
        query: () => ({ url: `/api/summary/status/` }),
        providesTags: ['summary'],
      }),
      summaryUnlock: build.mutation<SummaryUnlockApiResponse, SummaryUnlockApiArg>({
        query: (queryArg) => ({ url: `/api/summary/unlock/`, method: 'POST', body: queryArg.unlockBodyDoc }),
        invalidatesTags: ['summary'],
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
      shareLinksList: build.query<ShareLinksListApiResponse, ShareLinksListApiArg>({
        query: () => ({ url: `/api/share-links/` }),
        providesTags: ['sharing'],
      }),
      shareLinksCreate: build.mutation<ShareLinksCreateApiResponse, ShareLinksCreateApiArg>({
        query: (queryArg) => ({ url: `/api/share-links/`, method: 'POST', body: queryArg.createShareLinkBodyDoc }),
        invalidatesTags: ['sharing'],
      }),
      shareLinksDefault: build.query<ShareLinksDefaultApiResponse, ShareLinksDefaultApiArg>({
        query: () => ({ url: `/api/share-links/default/` }),
        providesTags: ['sharing'],
      }),
      shareLinksUpdate: build.mutation<ShareLinksUpdateApiResponse, ShareLinksUpdateApiArg>({
        query: (queryArg) => ({
          url: `/api/share-links/${queryArg.linkId}/`,
          method: 'PATCH',
          body: queryArg.updateShareLinkBodyDoc,
        }),
        invalidatesTags: ['sharing'],
      }),
      shareLinksRevoke: build.mutation<ShareLinksRevokeApiResponse, ShareLinksRevokeApiArg>({
        query: (queryArg) => ({ url: `/api/share-links/${queryArg.linkId}/revoke/`, method: 'POST' }),
        invalidatesTags: ['sharing'],
      }),
      shareFormatsFhir: build.query<ShareFormatsFhirApiResponse, ShareFormatsFhirApiArg>({
        query: (queryArg) => ({
          url: `/api/summary/fhir/`,
          params: {
            view_token: queryArg.viewToken,
            user: queryArg.user,
          },
        }),
        providesTags: ['summary'],
      }),
      shareFormatsPdf: build.query<ShareFormatsPdfApiResponse, ShareFormatsPdfApiArg>({
        query: (queryArg) => ({
          url: `/api/summary/pdf/`,
          params: {
            view_token: queryArg.viewToken,
            size: queryArg.size,
            user: queryArg.user,
          },
        }),
        providesTags: ['summary'],
      }),
      shareFormatsManifest: build.mutation<ShareFormatsManifestApiResponse, ShareFormatsManifestApiArg>({
        query: (queryArg) => ({
          url: `/api/summary/shl/`,
          method: 'POST',
          body: queryArg.shlManifestBodyDoc,
          params: {
            tag: queryArg.tag,
            user: queryArg.user,
          },
        }),
        invalidatesTags: ['summary'],
      }),
      shareFormatsFile: build.query<ShareFormatsFileApiResponse, ShareFormatsFileApiArg>({
        query: (queryArg) => ({
          url: `/api/summary/shl/file/`,
          params: {
            token: queryArg.token,
            tag: queryArg.tag,
            user: queryArg.user,
          },
        }),
        providesTags: ['summary'],
      }),
      walletPassUrl: build.query<WalletPassUrlApiResponse, WalletPassUrlApiArg>({
        query: () => ({ url: `/api/get-pass-url/` }),
        providesTags: ['wallet'],
      }),
      walletPassStatus: build.query<WalletPassStatusApiResponse, WalletPassStatusApiArg>({
        query: () => ({ url: `/api/wallet/status/` }),
        providesTags: ['wallet'],
      }),
      walletPassView: build.query<WalletPassViewApiResponse, WalletPassViewApiArg>({
        query: () => ({ url: `/api/wallet/pass/` }),
        providesTags: ['wallet'],
      }),
      walletSettings: build.mutation<WalletSettingsApiResponse, WalletSettingsApiArg>({
        query: (queryArg) => ({ url: `/api/wallet/settings/`, method: 'PUT', body: queryArg.passSettingsBodyDoc }),
        invalidatesTags: ['wallet'],
      }),
      walletGoogle: build.query<WalletGoogleApiResponse, WalletGoogleApiArg>({
        query: () => ({ url: `/api/wallet/google/` }),
        providesTags: ['wallet'],
      }),
      medicalLicenseVerify: build.mutation<MedicalLicenseVerifyApiResponse, MedicalLicenseVerifyApiArg>({
        query: (queryArg) => ({ url: `/api/medical-license/`, method: 'POST', body: queryArg.verifyLicenseBodyDoc }),
        invalidatesTags: ['Providers'],
      }),
      medicalLicenseGet: build.query<MedicalLicenseGetApiResponse, MedicalLicenseGetApiArg>({
        query: () => ({ url: `/api/medical-license/` }),
        providesTags: ['Providers'],
      }),
      medicalLicenseDispute: build.mutation<MedicalLicenseDisputeApiResponse, MedicalLicenseDisputeApiArg>({
        query: (queryArg) => ({
          url: `/api/medical-license/dispute/`,
          method: 'POST',
          body: queryArg.verifyLicenseBodyDoc,
        }),
        invalidatesTags: ['Providers'],
      }),
      providersRequest: build.mutation<ProvidersRequestApiResponse, ProvidersRequestApiArg>({
        query: (queryArg) => ({
          url: `/api/providers/access-requests/`,
          method: 'POST',
          body: queryArg.requestAccessBodyDoc,
        }),
        invalidatesTags: ['Providers'],
      }),
      providersAccess: build.query<ProvidersAccessApiResponse, ProvidersAccessApiArg>({
        query: () => ({ url: `/api/providers/access/` }),
        providesTags: ['Providers'],
      }),
      providersDecide: build.mutation<ProvidersDecideApiResponse, ProvidersDecideApiArg>({
        query: (queryArg) => ({
          url: `/api/providers/access-requests/${queryArg.requestId}/decision/`,
          method: 'POST',
          body: queryArg.decideRequestBodyDoc,
        }),
        invalidatesTags: ['Providers'],
      }),
      providersRevoke: build.mutation<ProvidersRevokeApiResponse, ProvidersRevokeApiArg>({
        query: (queryArg) => ({ url: `/api/providers/grants/${queryArg.grantId}/`, method: 'DELETE' }),
        invalidatesTags: ['Providers'],
      }),
      providersPatients: build.query<ProvidersPatientsApiResponse, ProvidersPatientsApiArg>({
        query: () => ({ url: `/api/providers/patients/` }),
        providesTags: ['Providers'],
      }),
      providersSummary: build.query<ProvidersSummaryApiResponse, ProvidersSummaryApiArg>({
        query: (queryArg) => ({ url: `/api/providers/patients/${queryArg.patientId}/summary/` }),
        providesTags: ['Providers'],
      }),
      providersIps: build.query<ProvidersIpsApiResponse, ProvidersIpsApiArg>({
        query: (queryArg) => ({ url: `/api/providers/patients/${queryArg.patientId}/summary/fhir/` }),
        providesTags: ['Providers'],
      }),
      providersDocuments: build.query<ProvidersDocumentsApiResponse, ProvidersDocumentsApiArg>({
        query: (queryArg) => ({ url: `/api/providers/patients/${queryArg.patientId}/documents/` }),
        providesTags: ['Providers'],
      }),
      providersDownloadLink: build.query<ProvidersDownloadLinkApiResponse, ProvidersDownloadLinkApiArg>({
        query: (queryArg) => ({
          url: `/api/providers/patients/${queryArg.patientId}/documents/${queryArg.documentId}/download-link/`,
        }),
        providesTags: ['Providers'],
      }),
      billingPlans: build.query<BillingPlansApiResponse, BillingPlansApiArg>({
        query: () => ({ url: `/api/plans/` }),
        providesTags: ['billing'],
      }),
      billingMembership: build.query<BillingMembershipApiResponse, BillingMembershipApiArg>({
        query: () => ({ url: `/api/membership/` }),
        providesTags: ['billing'],
      }),
      billingCheckout: build.mutation<BillingCheckoutApiResponse, BillingCheckoutApiArg>({
        query: (queryArg) => ({ url: `/api/stripe/checkout/`, method: 'POST', body: queryArg.checkoutBodyDoc }),
        invalidatesTags: ['billing'],
      }),
      billingCancel: build.mutation<BillingCancelApiResponse, BillingCancelApiArg>({
        query: () => ({ url: `/api/membership/cancel/`, method: 'POST' }),
        invalidatesTags: ['billing'],
      }),
      billingReferral: build.query<BillingReferralApiResponse, BillingReferralApiArg>({
        query: () => ({ url: `/api/referral/` }),
        providesTags: ['billing'],
      }),
      billingInvite: build.mutation<BillingInviteApiResponse, BillingInviteApiArg>({
        query: (queryArg) => ({ url: `/api/referral/invite/`, method: 'POST', body: queryArg.inviteBodyDoc }),
        invalidatesTags: ['billing'],
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
export type AuthOidcProvidersApiResponse = /** status 200  */ OidcProvidersDoc;
export type AuthOidcProvidersApiArg = void;
export type AuthLoginWithOidcApiResponse = /** status 200  */ TokenPairDoc;
export type AuthLoginWithOidcApiArg = {
  /** A configured provider name (GET /api/login-with-oidc/providers/) */
  provider: string;
  oidcLoginBodyDoc: OidcLoginBodyDoc;
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
  /** A passcode link's view token (POST /api/summary/unlock/) */
  viewToken?: string;
  /** The patient's own user id, or a share id */
  user: string;
};
export type SummaryStatusApiResponse = /** status 200  */ SummaryStatusDoc;
export type SummaryStatusApiArg = void;
export type SummaryUnlockApiResponse = /** status 200  */ UnlockReplyDoc;
export type SummaryUnlockApiArg = {
  unlockBodyDoc: UnlockBodyDoc;
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
export type ShareLinksListApiResponse = /** status 200  */ ShareLinkItemDoc[];
export type ShareLinksListApiArg = void;
export type ShareLinksCreateApiResponse = /** status 201  */ ShareLinkItemDoc;
export type ShareLinksCreateApiArg = {
  createShareLinkBodyDoc: CreateShareLinkBodyDoc;
};
export type ShareLinksDefaultApiResponse = /** status 200  */ ShareLinkItemDoc;
export type ShareLinksDefaultApiArg = void;
export type ShareLinksUpdateApiResponse = /** status 200  */ ShareLinkItemDoc;
export type ShareLinksUpdateApiArg = {
  /** The link's id (not its secret share id) */
  linkId: string;
  updateShareLinkBodyDoc: UpdateShareLinkBodyDoc;
};
export type ShareLinksRevokeApiResponse = /** status 200  */ ShareLinkItemDoc;
export type ShareLinksRevokeApiArg = {
  /** The link's id (not its secret share id) */
  linkId: string;
};
export type ShareFormatsFhirApiResponse = /** status 200 A FHIR R4 Bundle (application/fhir+json) */ {
  resourceType: 'Bundle';
  type: 'document';
  entry?: object[];
};
export type ShareFormatsFhirApiArg = {
  /** A passcode link's view token (POST /api/summary/unlock/) */
  viewToken?: string;
  /** A share id (anyone holding the link), or the signed-in owner's own user id */
  user: string;
};
export type ShareFormatsPdfApiResponse = unknown;
export type ShareFormatsPdfApiArg = {
  /** A passcode link's view token (POST /api/summary/unlock/) */
  viewToken?: string;
  /** Paper size (default a4) */
  size?: 'a4' | 'letter';
  /** A share id (anyone holding the link), or the signed-in owner's own user id */
  user: string;
};
export type ShareFormatsManifestApiResponse = /** status 200  */ ShlManifestDoc;
export type ShareFormatsManifestApiArg = {
  /** The tag binding the URL to the link's SHL key */
  tag: string;
  /** The share id */
  user: string;
  shlManifestBodyDoc: ShlManifestBodyDoc;
};
export type ShareFormatsFileApiResponse = unknown;
export type ShareFormatsFileApiArg = {
  token: string;
  tag: string;
  user: string;
};
export type WalletPassUrlApiResponse = /** status 200  */ PassUrlDoc;
export type WalletPassUrlApiArg = void;
export type WalletPassStatusApiResponse = /** status 200  */ PassStatusDoc;
export type WalletPassStatusApiArg = void;
export type WalletPassViewApiResponse = /** status 200  */ PassViewDoc;
export type WalletPassViewApiArg = void;
export type WalletSettingsApiResponse = /** status 200  */ PassViewDoc;
export type WalletSettingsApiArg = {
  passSettingsBodyDoc: PassSettingsBodyDoc;
};
export type WalletGoogleApiResponse = /** status 200  */ PassUrlDoc;
export type WalletGoogleApiArg = void;
export type MedicalLicenseVerifyApiResponse = /** status 200  */ VerifyLicenseReplyDoc;
export type MedicalLicenseVerifyApiArg = {
  verifyLicenseBodyDoc: VerifyLicenseBodyDoc;
};
export type MedicalLicenseGetApiResponse = /** status 200  */ ProviderFactsDoc;
export type MedicalLicenseGetApiArg = void;
export type MedicalLicenseDisputeApiResponse = /** status 201  */ DisputeLicenseReplyDoc;
export type MedicalLicenseDisputeApiArg = {
  verifyLicenseBodyDoc: VerifyLicenseBodyDoc;
};
export type ProvidersRequestApiResponse = /** status 200  */ RequestAccessReplyDoc;
export type ProvidersRequestApiArg = {
  requestAccessBodyDoc: RequestAccessBodyDoc;
};
export type ProvidersAccessApiResponse = /** status 200  */ PatientAccessReplyDoc;
export type ProvidersAccessApiArg = void;
export type ProvidersDecideApiResponse = /** status 200  */ PatientAccessReplyDoc;
export type ProvidersDecideApiArg = {
  requestId: string;
  decideRequestBodyDoc: DecideRequestBodyDoc;
};
export type ProvidersRevokeApiResponse = /** status 200  */ PatientAccessReplyDoc;
export type ProvidersRevokeApiArg = {
  grantId: string;
};
export type ProvidersPatientsApiResponse = /** status 200  */ ProviderPatientItemDoc[];
export type ProvidersPatientsApiArg = void;
export type ProvidersSummaryApiResponse = /** status 200  */ SummaryItemDoc;
export type ProvidersSummaryApiArg = {
  /** A patient id from GET /api/providers/patients/ */
  patientId: string;
};
export type ProvidersIpsApiResponse = /** status 200 A FHIR R4 Bundle of type document (Composition first) */ object;
export type ProvidersIpsApiArg = {
  /** A patient id from GET /api/providers/patients/ */
  patientId: string;
};
export type ProvidersDocumentsApiResponse = /** status 200  */ DocumentItemDoc[];
export type ProvidersDocumentsApiArg = {
  /** A patient id from GET /api/providers/patients/ */
  patientId: string;
};
export type ProvidersDownloadLinkApiResponse = /** status 200  */ DownloadLinkDoc;
export type ProvidersDownloadLinkApiArg = {
  /** A patient id from GET /api/providers/patients/ */
  patientId: string;
  documentId: string;
};
export type BillingPlansApiResponse = /** status 200  */ PlansReplyDoc;
export type BillingPlansApiArg = void;
export type BillingMembershipApiResponse = /** status 200  */ MembershipDoc;
export type BillingMembershipApiArg = void;
export type BillingCheckoutApiResponse = /** status 200  */ CheckoutReplyDoc;
export type BillingCheckoutApiArg = {
  checkoutBodyDoc: CheckoutBodyDoc;
};
export type BillingCancelApiResponse = /** status 200  */ MembershipDoc;
export type BillingCancelApiArg = void;
export type BillingReferralApiResponse = /** status 200  */ ReferralDoc;
export type BillingReferralApiArg = void;
export type BillingInviteApiResponse = /** status 200  */ MessageDoc;
export type BillingInviteApiArg = {
  inviteBodyDoc: InviteBodyDoc;
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
  /** The referral code of the sign-up link (/sign-up?ref=CODE) */
  ref?: string;
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
export type OidcProviderDoc = {
  /** Name used in the routes and the callback path */
  name: string;
  /** Shown on the button: "Continue with <label>" */
  label: string;
  /** The provider's authorization endpoint (from its discovery document) */
  authorization_url: string;
  /** Our OAuth client id at the provider */
  client_id: string;
  scope: string;
};
export type OidcProvidersDoc = {
  /** The configured providers that answer; empty when none is configured */
  providers: OidcProviderDoc[];
};
export type OidcLoginBodyDoc = {
  /** The authorization code from the redirect back to /auth/oidc/{provider}/callback */
  code: string;
  /** The PKCE code verifier (RFC 7636) whose S256 challenge was in the authorization request */
  code_verifier: string;
  /** The nonce of the authorization request; the ID token must carry it */
  nonce: string;
  /** The redirect URI of the authorization request: <origin>/auth/oidc/{provider}/callback */
  redirect_uri: string;
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
export type ProviderFactsDoc = {
  npi: string;
  /** The registry that confirmed it */
  registry: string;
  first_name: string;
  last_name: string;
  credential: string;
  /** The registry's primary taxonomy */
  specialty: string;
  /** The primary taxonomy's licence state */
  state: string;
  verified_at: string;
  /** How patients see the provider */
  display_name: string;
  /** 'self_attested': the registry knows the NPI under the account's name (a claim: patients see "claims to be Dr X (NPI ...); not verified", and links never let you in without asking). 'verified': an operator confirmed your identity (and no dispute of the number is open). */
  verification: 'self_attested' | 'verified';
  /** Where the claim stands in the operators' review */
  review: 'pending' | 'verified' | 'disputed';
  /** When an operator verified the claim */
  reviewed_at: string | null;
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
  gender: ('female' | 'male' | 'other' | 'undisclosed') | null;
  email_verified: boolean;
  /** 'provider' while the account holds a medical license claim (POST /api/medical-license/; self-attested or verified: see provider.verification) */
  roles: string[];
  /** The registry's facts and the claim's verification level while the account holds a license claim */
  provider: ProviderFactsDoc | null;
};
export type UpdateProfileBodyDoc = {
  first_name: string;
  last_name?: string;
  phone: string;
  /** Absent: unchanged; '' clears it */
  gender?: 'female' | 'male' | 'other' | 'undisclosed' | '';
  /** Absent: unchanged. YYYY-MM-DD, a real date, not in the future */
  date_of_birth?: string;
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
export type SharedViaDoc = {
  label: string;
  expires_at: string | null;
  /** The link shows the patient's name and date of birth */
  show_patient_identity?: boolean;
};
export type SummaryPatientDoc = {
  /** Given and family name joined */
  name: string;
  given: string;
  family: string;
  /** YYYY-MM-DD */
  birth_date: string | null;
};
export type SummaryItemDoc = {
  /** The summary text: five sections with bold headings (hidden facts left out, corrected text used) */
  summary: string;
  /** processing: documents are being read or the summary is being rebuilt. unreviewed (share links only): the patient has not reviewed and confirmed a summary yet; there are then no sections (nothing is claimed, not even "not recorded") */
  status: 'empty' | 'processing' | 'ready' | 'unreviewed';
  /** The latest built version; 0 when nothing was built yet */
  version: number;
  /** The version the patient confirmed */
  confirmed_version: number | null;
  updated_at: string;
  sections: SummarySectionDoc[];
  documents: SummaryDocumentDoc[];
  /** Set when served through a share link */
  shared?: SharedViaDoc;
  /** Whose summary it is (current name and date of birth); null when the link hides them or they could not be read just now */
  patient?: SummaryPatientDoc | null;
};
export type SummaryStatusDocumentDoc = {
  document_id: string;
  state: 'pending' | 'processing' | 'read' | 'unreadable';
};
export type SummaryStatusDoc = {
  /** As GET /api/summary/ answers the owner */
  status: 'empty' | 'processing' | 'ready';
  /** The latest built version; 0 when nothing was built yet */
  version: number;
  /** The version the patient confirmed */
  confirmed_version: number | null;
  /** The documents the summary service knows of, and how far each was read */
  documents: SummaryStatusDocumentDoc[];
};
export type UnlockReplyDoc = {
  /** Send as view_token with GET /api/summary/?user={shareId} */
  view_token: string;
  expires_at: string;
};
export type UnlockBodyDoc = {
  /** The share id from the link */
  user: string;
  passcode: string;
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
export type ShareLinkItemDoc = {
  /** The link's own id (for the owner's routes); not the secret */
  id: string;
  /** The secret in the URL (128 random bits, base64url) */
  share_id: string;
  url: string;
  label: string;
  /** 'default': the dashboard's link; 'custom': made on the share panel; 'wallet': a pass's own link */
  purpose: 'default' | 'custom' | 'wallet';
  /** Bumped on every change to the link */
  version: number;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  has_passcode: boolean;
  /** Too many wrong passcodes: it opens again once the owner sets a new passcode */
  locked: boolean;
  /** E-mail the owner when the link is opened (at most once per hour) */
  notify_on_view: boolean;
  /** Care providers who reach the patient through this link may ask to see documents */
  providers_may_see_documents: boolean;
  /** The patient's name and date of birth on the page, PDF and IPS the link hands out (off: an anonymous summary) */
  show_patient_identity: boolean;
  view_count: number;
  last_viewed_at: string | null;
  /** The SMART Health Link (shlink:/...) when the link is also one */
  shl: string | null;
  /** What the link's QR code encodes: `url`, with '#' and `shl` after it when the link is an SHL */
  qr_text: string;
};
export type CreateShareLinkBodyDoc = {
  label: string;
  /** A future time, at most a year ahead; absent or null: no expiry */
  expires_at?: string | null;
  /** Asked before the summary shows; stored hashed */
  passcode?: string | null;
  notify_on_view?: boolean;
  providers_may_see_documents?: boolean;
  /** Also a SMART Health Link: a doctor’s app reads the summary as a FHIR IPS Bundle */
  shl?: boolean;
  /** Show the patient's name and date of birth (false: an anonymous summary) */
  show_patient_identity?: boolean;
};
export type UpdateShareLinkBodyDoc = {
  label?: string;
  /** null removes the expiry */
  expires_at?: string | null;
  /** A new passcode (also unlocks a locked link); null removes it */
  passcode?: string | null;
  notify_on_view?: boolean;
  providers_may_see_documents?: boolean;
  /** Turn the SMART Health Link on (a new key) or off */
  shl?: boolean;
  /** Show the patient's name and date of birth, or not */
  show_patient_identity?: boolean;
};
export type ShlManifestFileDoc = {
  contentType: 'application/fhir+json';
  /** Compact JWE (alg dir, enc A256GCM) */
  embedded?: string;
  /** URL of the compact JWE, valid for an hour */
  location?: string;
  /** ISO 8601 */
  lastUpdated?: string;
};
export type ShlManifestDoc = {
  status: 'finalized' | 'can-change' | 'no-longer-valid';
  files: ShlManifestFileDoc[];
};
export type ShlRemainingAttemptsDoc = {
  remainingAttempts: number;
  message: string;
  code: string;
};
export type ShlManifestBodyDoc = {
  /** Who is asking (shown in the patient’s history) */
  recipient: string;
  /** Required when the SHL payload has flag P */
  passcode?: string;
  /** Longest embedded file the client takes; longer ones come as a location */
  embeddedLengthMax?: number;
};
export type PassUrlDoc = {
  /** A short-lived signed link (5 minutes) serving the signed pass as application/vnd.apple.pkpass, named medfolio_{userId}.pkpass */
  url: string;
};
export type PassStatusDoc = {
  /** 'none': no pass issued yet; 'active': the pass works; 'retired': its link was revoked, so its QR code opens nothing and it no longer updates (GET /api/get-pass-url/ issues a new one) */
  state: 'none' | 'active' | 'retired';
  /** When the last pass was retired ('retired' only) */
  retired_at: string | null;
};
export type PassFieldDoc = {
  key: string;
  label: string;
  value: string;
};
export type PassViewDoc = {
  serial_number: string;
  brand: string;
  description: string;
  /** The holder's first name, or null when kept off the pass */
  holder_name: string | null;
  /** The patient lets the first name show on the pass */
  show_name: boolean;
  /** The QR code's content: the pass's own share link */
  qr_url: string;
  header_fields: PassFieldDoc[];
  primary_fields: PassFieldDoc[];
  secondary_fields: PassFieldDoc[];
  /** The back of the pass: what it is and how to revoke it */
  back_fields: PassFieldDoc[];
  background_color: string;
  foreground_color: string;
  label_color: string;
  updated_at: string;
};
export type PassSettingsBodyDoc = {
  /** Show the holder's first name on the pass */
  show_name: boolean;
};
export type VerifyLicenseReplyDoc = {
  message: string;
  provider: ProviderFactsDoc;
};
export type VerifyLicenseBodyDoc = {
  /** The licence number: for the NPPES NPI Registry, the 10-digit NPI (spaces and dashes ignored) */
  license_number: string;
};
export type DisputeLicenseReplyDoc = {
  message: string;
  dispute_id: string;
};
export type RequestAccessReplyDoc = {
  message: string;
  state: 'pending' | 'granted';
  /** The patient's id once access is granted */
  patient_id: string | null;
};
export type RequestAccessBodyDoc = {
  /** The share id of the summary page (/summary/{shareId}) */
  share_id: string;
  /** A passcode link's view token (POST /api/summary/unlock/, as the page got it): required for a passcode link, which answers 403 without it */
  view_token?: string;
};
export type ProviderSummaryDoc = {
  user_id: string;
  display_name: string;
  /** 'verified' (an operator confirmed who they are) or 'self_attested' (the registry's name matches the account's, which anyone can claim): show "claims to be <display_name>; not verified" */
  verification: 'self_attested' | 'verified';
  npi: string;
  credential: string;
  specialty: string;
  state: string;
};
export type AccessRequestItemDoc = {
  id: string;
  provider: ProviderSummaryDoc;
  /** The label of the share link the provider came through */
  link_label: string;
  state: 'pending' | 'approved' | 'declined';
  created_at: string;
};
export type GrantItemDoc = {
  id: string;
  provider: ProviderSummaryDoc;
  source: 'approved' | 'share-link';
  granted_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** Neither revoked nor expired */
  active: boolean;
};
export type PatientAccessReplyDoc = {
  /** Pending requests */
  requests: AccessRequestItemDoc[];
  /** Every grant, active or not (newest first) */
  grants: GrantItemDoc[];
};
export type DecideRequestBodyDoc = {
  decision: 'approve' | 'decline';
  /** Required to approve: how long the provider may see the documents */
  duration?: 'day' | 'week' | 'month';
};
export type ProviderPatientItemDoc = {
  patient_id: string;
  first_name: string;
  grant_id: string;
  expires_at: string;
};
export type PriceIdsDoc = {
  monthly: string;
  yearly: string;
};
export type PlanDoc = {
  id: 'free' | 'basic' | 'standard' | 'plus' | 'pro';
  name: string;
  monthly_cents: number;
  yearly_cents: number;
  price_ids: PriceIdsDoc | null;
};
export type PlansReplyDoc = {
  plans: PlanDoc[];
  /** False when payments are not configured: plans are shown, nothing can be bought */
  payments_configured: boolean;
  tax_percent: number;
};
export type MembershipDoc = {
  plan: 'free' | 'basic' | 'standard' | 'plus' | 'pro';
  plan_name: string;
  status: 'none' | 'incomplete' | 'active' | 'past_due' | 'canceled';
  mode: ('monthly' | 'yearly') | null;
  price_cents: number;
  /** The plan renews by itself */
  autopay: boolean;
  /** End of the current period: the next payment */
  current_period_end: string | null;
  cancel_at_period_end: boolean;
  /** A past-due plan stays until then */
  grace_until: string | null;
  /** End of a free month earned by referrals */
  granted_until: string | null;
  payments_configured: boolean;
};
export type CheckoutReplyDoc = {
  /** The client secret for Stripe.js of the first invoice, or of a plan change's prorated invoice when its payment needs the customer; null when nothing is to be confirmed (a plan change, its prorated difference invoiced and paid at once) */
  id: string | null;
  message: string;
  subtotal_cents: number;
  tax_cents: number;
  total_cents: number;
};
export type CheckoutBodyDoc = {
  /** One of the eight price ids (price_<tier>_<monthly|yearly>) */
  price_id: string;
  tier: 'basic' | 'standard' | 'plus' | 'pro';
  mode: 'monthly' | 'yearly';
};
export type ReferralDoc = {
  code: string;
  link: string;
  /** Invitations sent */
  invited: number;
  /** Friends who signed up with the code */
  joined: number;
  /** Friends who verified their e-mail as new accounts */
  counted: number;
  /** Free months earned (one per 3 counted) */
  months_earned: number;
  /** Counted friends towards the next month */
  towards_next: number;
  /** Credit given on invoices, in cents */
  credit_cents: number;
};
export type InviteBodyDoc = {
  email: string;
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
  /** Google Wallet is configured: the dashboard shows 'Save to Google Wallet' */
  google_wallet: boolean;
  /** Stripe.js's publishable key; null when card payments are not set up (no Stripe.js is loaded) */
  stripe_publishable_key: string | null;
};
export const {
  useHealthGetQuery,
  useAuthRegisterMutation,
  useAuthVerifyOtpMutation,
  useAuthResendOtpMutation,
  useAuthLoginMutation,
  useAuthLoginWithGoogleMutation,
  useAuthOidcProvidersQuery,
  useAuthLoginWithOidcMutation,
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
  useSummaryStatusQuery,
  useSummaryUnlockMutation,
  useSummaryHideMutation,
  useSummaryEditMutation,
  useSummaryRemoveMutation,
  useSummaryAddMutation,
  useSummaryConfirmMutation,
  useShareLinksListQuery,
  useShareLinksCreateMutation,
  useShareLinksDefaultQuery,
  useShareLinksUpdateMutation,
  useShareLinksRevokeMutation,
  useShareFormatsFhirQuery,
  useShareFormatsPdfQuery,
  useShareFormatsManifestMutation,
  useShareFormatsFileQuery,
  useWalletPassUrlQuery,
  useWalletPassStatusQuery,
  useWalletPassViewQuery,
  useWalletSettingsMutation,
  useWalletGoogleQuery,
  useMedicalLicenseVerifyMutation,
  useMedicalLicenseGetQuery,
  useMedicalLicenseDisputeMutation,
  useProvidersRequestMutation,
  useProvidersAccessQuery,
  useProvidersDecideMutation,
  useProvidersRevokeMutation,
  useProvidersPatientsQuery,
  useProvidersSummaryQuery,
  useProvidersIpsQuery,
  useProvidersDocumentsQuery,
  useProvidersDownloadLinkQuery,
  useBillingPlansQuery,
  useBillingMembershipQuery,
  useBillingCheckoutMutation,
  useBillingCancelMutation,
  useBillingReferralQuery,
  useBillingInviteMutation,
  useContactSubmitMutation,
  useClientConfigGetQuery,
} = injectedRtkApi;
