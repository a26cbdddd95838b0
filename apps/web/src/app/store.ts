import { configureStore, createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
import { emptyApi } from '../api/empty-api';
import { familyUtil } from '../api/family';
import { sessionSlice, signedOut } from '../session/session-slice';
import { viewedAccessRefused, viewingChanged, viewingEnded, viewingSlice } from '../session/viewing-slice';

const listener = createListenerMiddleware();
/**
 * Signing out forgets every cached answer (profile, history, ...) of the previous user; so does
 * switching to another person's record (and back): nothing of one person shows under another's name.
 */
listener.startListening({
  matcher: isAnyOf(signedOut, viewingChanged, viewingEnded),
  effect: (_action, { dispatch }) => {
    dispatch(emptyApi.util.resetApiState());
  },
});
/** A call for someone else's record was refused: re-read the grants (a revoked one ends the view). */
listener.startListening({
  actionCreator: viewedAccessRefused,
  effect: (_action, { dispatch }) => {
    dispatch(familyUtil.invalidateTags(['family']));
  },
});

export function makeStore() {
  return configureStore({
    reducer: { [emptyApi.reducerPath]: emptyApi.reducer, session: sessionSlice.reducer, viewing: viewingSlice.reducer },
    middleware: (getDefault) => getDefault().prepend(listener.middleware).concat(emptyApi.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
