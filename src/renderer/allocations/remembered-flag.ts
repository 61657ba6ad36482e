// A yes/no choice of the page remembered across sessions (localStorage), e.g. whether the stack
// panel shows framework frames. Storage that cannot be read or written leaves the default.

import { useCallback, useState } from 'react';

export function rememberedFlag(key: string, fallback: boolean): boolean {
  try {
    const value = globalThis.localStorage?.getItem(key);
    return value === 'true' ? true : value === 'false' ? false : fallback;
  } catch {
    return fallback;
  }
}

export function rememberFlag(key: string, value: boolean): void {
  try {
    globalThis.localStorage?.setItem(key, String(value));
  } catch {
    // Storage refused (private mode, quota): the choice holds for this page only.
  }
}

/** The remembered flag and a setter that remembers it. */
export function useRememberedFlag(
  key: string,
  fallback: boolean,
): [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(() => rememberedFlag(key, fallback));
  const set = useCallback(
    (next: boolean) => {
      setValue(next);
      rememberFlag(key, next);
    },
    [key],
  );
  return [value, set];
}
