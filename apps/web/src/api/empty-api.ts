import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import { accessToken } from '../session/tokens';
import { withReauth } from './reauth';

/**
 * The one RTK Query API of the web app. Its endpoints are generated from the gateway's OpenAPI
 * document into generated.ts (npm run api:generate); api.ts adds cache tags and the few
 * hand-written calls (multipart uploads). Same origin as the page: no CORS, SameSite=Strict cookies.
 */
export const emptyApi = createApi({
  reducerPath: 'api',
  baseQuery: withReauth(
    fetchBaseQuery({
      baseUrl: typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
      prepareHeaders(headers) {
        const token = accessToken();
        if (token) headers.set('authorization', `Bearer ${token}`);
        return headers;
      },
    }),
  ),
  endpoints: () => ({}),
});
