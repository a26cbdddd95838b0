import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import { accessToken } from '../session/tokens';
import { patientHeaderFor, viewedAccessRefused, type ViewingState } from '../session/viewing-slice';
import { withReauth, type RawBaseQuery } from './reauth';

type WithViewing = { viewing?: ViewingState };

const viewedRecord = (state: unknown) => (state as WithViewing).viewing?.record ?? null;
const urlOf = (arg: Parameters<RawBaseQuery>[0]) => (typeof arg === 'string' ? arg : arg.url);

/**
 * A patient call refused (403) while looking at someone else's record: the grant may have just been
 * revoked or have expired, so the family list is read again (store.ts), which ends the view if so.
 */
function watchViewedAccess(raw: RawBaseQuery): RawBaseQuery {
  return async (args, api, extraOptions) => {
    const sentFor = patientHeaderFor(urlOf(args), viewedRecord(api.getState()));
    const result = await raw(args, api, extraOptions);
    if (sentFor && result.error?.status === 403) api.dispatch(viewedAccessRefused());
    return result;
  };
}

/**
 * The one RTK Query API of the web app. Its endpoints are generated from the gateway's OpenAPI
 * document into generated.ts (npm run api:generate); api.ts adds cache tags and the few
 * hand-written calls (multipart uploads). Same origin as the page: no CORS, SameSite=Strict cookies.
 * Looking at another person's record (a child's, or as a caregiver), every patient call names it
 * in X-Patient-Id; the server checks it against the caller's grants.
 */
export const emptyApi = createApi({
  reducerPath: 'api',
  baseQuery: watchViewedAccess(
    withReauth(
      fetchBaseQuery({
        baseUrl: typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
        prepareHeaders(headers, { getState, arg }) {
          const token = accessToken();
          if (token) headers.set('authorization', `Bearer ${token}`);
          const patient = patientHeaderFor(urlOf(arg), viewedRecord(getState()));
          if (patient) headers.set('x-patient-id', patient);
          return headers;
        },
      }),
    ),
  ),
  endpoints: () => ({}),
});
