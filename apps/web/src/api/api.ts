import { medfolioApi } from './generated';
import { userLoaded, type CurrentUser } from '../session/session-slice';

/**
 * The generated endpoints (generated.ts, from the gateway's OpenAPI document) with what a schema
 * cannot say: the profile fetch fills the session's current user, the picture upload is sent as
 * multipart form data, and the access history is refetched after anything that writes to it.
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
    profilePictureUploadUpload: {
      query: ({ body }) => {
        const form = new FormData();
        form.append('picture', body.picture);
        return { url: '/api/profile/picture/', method: 'POST', body: form };
      },
      invalidatesTags: ['profile', 'history'],
    },
    clientConfigGet: { keepUnusedDataFor: 3600 },
  },
});

export const {
  useAuthLoginMutation,
  useAuthLoginWithGoogleMutation,
  useAuthRegisterMutation,
  useAuthVerifyOtpMutation,
  useAuthResendOtpMutation,
  useAuthForgotMutation,
  useAuthResetMutation,
  useAuthLogoutMutation,
  useProfileGetQuery,
  useProfileUpdateMutation,
  useProfileChangePasswordMutation,
  useProfilePictureUploadUploadMutation,
  useHistoryListQuery,
  useContactSubmitMutation,
  useClientConfigGetQuery,
} = api;
