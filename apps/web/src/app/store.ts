import { configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { emptyApi } from '../api/empty-api';
import { sessionSlice, signedOut } from '../session/session-slice';

/** Signing out forgets every cached answer (profile, history, ...) of the previous user. */
const listener = createListenerMiddleware();
listener.startListening({
  actionCreator: signedOut,
  effect: (_action, { dispatch }) => {
    dispatch(emptyApi.util.resetApiState());
  },
});

export function makeStore() {
  return configureStore({
    reducer: { [emptyApi.reducerPath]: emptyApi.reducer, session: sessionSlice.reducer },
    middleware: (getDefault) => getDefault().prepend(listener.middleware).concat(emptyApi.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
