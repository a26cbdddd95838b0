import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { medfolioApi, type DocumentsUploadApiArg } from './generated';
import { userLoaded, type CurrentUser } from '../session/session-slice';
import { accessToken } from '../session/tokens';
import { withReauth } from './reauth';
import { patientHeaderFor, viewedAccessRefused, type ViewingState } from '../session/viewing-slice';

/**
 * The generated endpoints (generated.ts, from the gateway's OpenAPI document) with what a schema
 * cannot say: the profile fetch fills the session's current user, the picture upload is sent as
 * multipart form data, the access history is refetched after anything that writes to it, and the
 * document upload is sent with XMLHttpRequest to report its progress.
 */
export const api = medfolioApi.enhanceEndpoints({
  endpoints: {
    profileGet: {
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(userLoaded(data as CurrentUser));
        } catch {
          // Profile load errors are logged by the base query's caller and end the loading state.
        }
      },
      providesTags: ['profile', 'history'],
    },
    profileUpdate: { invalidatesTags: ['profile', 'history'] },
    profileChangePassword: { invalidatesTags: ['history'] },
    historyList: { providesTags: ['history'], keepUnusedDataFor: 0 },
    profilePictureUpload: {
      query: ({ body }) => {
        const form = new FormData();
        form.append('picture', body.picture);
        return { url: '/api/profile/picture/', method: 'POST', body: form };
      },
      invalidatesTags: ['profile', 'history'],
    },
    clientConfigGet: { keepUnusedDataFor: 3600 },
    // The upload goes through XMLHttpRequest (fetch reports no upload progress); its code is loaded
    // with the first upload, never with the landing page.
    documentsUpload: (definition) => {
      Object.assign(definition, {
        query: undefined,
        async queryFn(arg: DocumentsUploadApiArg, api: BaseQueryApi) {
          const { uploadDocuments } = await import('./upload');
          const patientId = patientHeaderFor('/api/upload/', (api.getState() as { viewing?: ViewingState }).viewing?.record ?? null);
          const result = await uploadDocuments(arg, api, { accessToken, withReauth, patientId });
          if (patientId && 'error' in result && result.error.status === 403) api.dispatch(viewedAccessRefused());
          return result;
        },
      });
    },
    // Billing: the membership changes with a checkout or a cancellation (and Stripe's webhook, later).
    billingPlans: { providesTags: [], keepUnusedDataFor: 600 },
    billingMembership: { providesTags: ['billing'], keepUnusedDataFor: 0 },
    billingCheckout: { invalidatesTags: ['billing', 'history'] },
    billingCancel: { invalidatesTags: ['billing', 'history'] },
    billingReferral: { providesTags: ['billing'], keepUnusedDataFor: 0 },
    billingInvite: { invalidatesTags: ['billing'] },
    // A download link lives 5 minutes and each one is audited: fetched on demand, never cached or refetched.
    documentsDownloadLink: { providesTags: [], keepUnusedDataFor: 0 },
    // The pass's download link lives 5 minutes and is audited; so is the Google Save link: on demand only.
    walletPassUrl: { providesTags: [], keepUnusedDataFor: 0 },
    walletGoogle: { providesTags: [], keepUnusedDataFor: 0 },
    walletPassView: { providesTags: ['wallet'] },
    walletSettings: { invalidatesTags: ['wallet'] },
    // Providers: a verified licence changes the profile (roles); every decision is in the history.
    medicalLicenseVerify: { invalidatesTags: ['profile', 'history', 'providers'] },
    // The claim's level (self-attested or verified) and the real holder's dispute.
    medicalLicenseGet: { keepUnusedDataFor: 0 },
    medicalLicenseDispute: { invalidatesTags: ['history'] },
    providersAccess: { keepUnusedDataFor: 0 },
    providersDecide: { invalidatesTags: ['providers', 'history'] },
    providersRevoke: { invalidatesTags: ['providers', 'history'] },
    providersDocuments: { keepUnusedDataFor: 0 },
    providersDownloadLink: { providesTags: [], keepUnusedDataFor: 0 },
  },
});

export const {
  useAuthLoginMutation,
  useAuthLoginWithGoogleMutation,
  useAuthOidcProvidersQuery,
  useAuthLoginWithOidcMutation,
  useAuthRegisterMutation,
  useAuthVerifyOtpMutation,
  useAuthResendOtpMutation,
  useAuthForgotMutation,
  useAuthResetMutation,
  useAuthLogoutMutation,
  useProfileGetQuery,
  useProfileUpdateMutation,
  useProfileChangePasswordMutation,
  useProfilePictureUploadMutation,
  useHistoryListQuery,
  useContactSubmitMutation,
  useClientConfigGetQuery,
  useDocumentsUploadMutation,
  useDocumentsListQuery,
  useDocumentsDeleteMutation,
  useWalletPassViewQuery,
  useWalletSettingsMutation,
  useMedicalLicenseVerifyMutation,
  useMedicalLicenseGetQuery,
  useMedicalLicenseDisputeMutation,
  useProvidersRequestMutation,
  useProvidersAccessQuery,
  useProvidersDecideMutation,
  useProvidersRevokeMutation,
  useProvidersPatientsQuery,
  useProvidersDocumentsQuery,
  useLazyProvidersDownloadLinkQuery,
  useBillingPlansQuery,
  useBillingMembershipQuery,
  useBillingCheckoutMutation,
  useBillingCancelMutation,
  useBillingReferralQuery,
  useBillingInviteMutation,
} = api;
