import { api } from './api';
import type { AuthorizeReply, ConnectionView, DeletedReply, EndpointView, ReceiveShlReply } from '@medfolio/contracts';

/*
 * Hospital and clinic connections on the generated endpoints, loaded with the connections pages
 * only. The directory search is cached briefly (it changes only with the deployment's directory);
 * finishing a sign-in is never cached (a state is used once) and refreshes the list of connections.
 */

export type { AuthorizeReply, ConnectionView, DeletedReply, EndpointView, ReceiveShlReply };

const connectionsApi = api.enhanceEndpoints({
  endpoints: {
    connectionsEndpoints: { providesTags: [], keepUnusedDataFor: 60 },
    connectionsList: { providesTags: ['connections'], keepUnusedDataFor: 0 },
    // A received SMART Health Link adds documents: the documents list, the summary, the trends and the history change.
    connectionsShlReceive: { invalidatesTags: ['documents', 'summary', 'trends', 'history'] },
    connectionsCallback: {
      providesTags: [],
      keepUnusedDataFor: 0,
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
          dispatch(api.util.invalidateTags(['connections']));
        } catch {
          // The callback page shows the error.
        }
      },
    },
  },
});

export const {
  useConnectionsEndpointsQuery,
  useConnectionsListQuery,
  useConnectionsStartMutation,
  useConnectionsDeleteMutation,
  useConnectionsSyncMutation,
  useConnectionsShlReceiveMutation,
  useLazyConnectionsCallbackQuery,
} = connectionsApi;
