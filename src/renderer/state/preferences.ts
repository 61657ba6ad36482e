// The choices that outlive the session (the colouring of the timeline, the lower view on the whole
// page, the panes' sizes, the stack panel's framework frames and split): read once when a tab's store is made, written by the store's actions
// (tab-store.ts), never read back by anything else. Storage that cannot be read or written (private
// mode, a policy, full) leaves the defaults: the choice then holds for this page only.

export const PREFERENCE_KEYS = {
  colorBy: 'allocscope.timeline.colorBy',
  fullPage: 'allocscope.panes.lowerFullPage',
  stackShowFramework: 'allocscope.stack.showFramework',
  stackShare: 'allocscope.stack.share',
} as const;

/** The part of `Storage` used here (localStorage in the page; a Map-backed one in tests). */
export interface PreferenceStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The page's localStorage, or null where there is none (or touching it throws). */
export function pageStorage(): PreferenceStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readPreference(storage: PreferenceStorage | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Writes a preference; an empty value forgets it. */
export function writePreference(
  storage: PreferenceStorage | null,
  key: string,
  value: string,
): void {
  try {
    if (value === '') storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // Full or refused: the choice holds for this page only.
  }
}
