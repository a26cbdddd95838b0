import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/**
 * False in markup rendered ahead of time (src/prerender.tsx) and during the hydration render that
 * takes it over; true from then on, and from the start in a page the app renders itself. React
 * re-renders once after hydration, so this changes nothing on screen but what depends on it.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
