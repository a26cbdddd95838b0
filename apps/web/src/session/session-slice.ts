import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { accessToken } from './tokens';

/** The fields of GET /api/profile/ the app reads (section 3 "User / profile"). */
export interface CurrentUser {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  profile_picture: string | null;
}

export interface SessionState {
  /** Signed in while an access token cookie exists (section 2); mirrored here so the UI re-renders. */
  authenticated: boolean;
  /** Current user info: starts empty, filled by a successful profile fetch. */
  user: CurrentUser | null;
  /** 'update response received' flag: reset to false by each successful profile fetch. */
  updateResponseReceived: boolean;
  /** How the last session ended: a user who signed out goes home, not to /login?next=. */
  endedBy: 'logout' | 'expired' | null;
}

export const initialSessionState = (): SessionState => ({
  authenticated: Boolean(accessToken()),
  user: null,
  updateResponseReceived: false,
  endedBy: null,
});

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    signedIn(state) {
      state.authenticated = true;
      state.endedBy = null;
    },
    signedOut(state, action: PayloadAction<'logout' | 'expired' | undefined>) {
      state.authenticated = false;
      state.endedBy = action.payload ?? 'expired';
      state.user = null;
      state.updateResponseReceived = false;
    },
    userLoaded(state, action: PayloadAction<CurrentUser>) {
      state.user = action.payload;
      state.updateResponseReceived = false;
    },
    updateResponseReceived(state) {
      state.updateResponseReceived = true;
    },
  },
});

export const { signedIn, signedOut, userLoaded, updateResponseReceived } = sessionSlice.actions;
