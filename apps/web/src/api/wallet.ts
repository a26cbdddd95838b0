import { useCallback } from 'react';
import { useAppDispatch } from '../app/hooks';
import { api } from './api';

/** The pass's download name (spec section 9): the brand prefix and _{userId}.pkpass. */
export function passFilename(userId: string): string {
  return `medfolio_${userId}.pkpass`;
}

/** Whether the patient has a wallet pass, or had one that was retired (GET /api/wallet/status/): makes nothing. */
export const { useWalletPassStatusQuery } = api;

/** A fresh download link of the patient's signed Apple Wallet pass (GET /api/get-pass-url/): never cached. */
export function usePassUrl() {
  const dispatch = useAppDispatch();
  return useCallback(() => dispatch(api.endpoints.walletPassUrl.initiate(undefined, { subscribe: false, forceRefetch: true })).unwrap(), [dispatch]);
}

/** A fresh 'Save to Google Wallet' link (GET /api/wallet/google/): never cached. */
export function useGoogleSaveUrl() {
  const dispatch = useAppDispatch();
  return useCallback(() => dispatch(api.endpoints.walletGoogle.initiate(undefined, { subscribe: false, forceRefetch: true })).unwrap(), [dispatch]);
}
