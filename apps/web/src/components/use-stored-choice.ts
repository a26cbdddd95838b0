import { useCallback, useState } from 'react';

/**
 * A choice remembered in this browser (localStorage), e.g. the dashboard's list or grid view.
 * Only the given values are read back; storage that is full or turned off just forgets.
 * Not for prerendered pages: their first render must not depend on the visitor (docs/notes.md).
 */
export function useStoredChoice<T extends string>(key: string, allowed: readonly T[], fallback: T): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const stored = window.localStorage.getItem(key);
      return allowed.find((v) => v === stored) ?? fallback;
    } catch {
      return fallback;
    }
  });
  const choose = useCallback(
    (next: T) => {
      setValue(next);
      try {
        window.localStorage.setItem(key, next);
      } catch {
        // Private mode or a full store: the choice lasts for this page only.
      }
    },
    [key],
  );
  return [value, choose];
}
