// The store of the tab shown (tab-store.ts), handed to its page through one context: a view reads
// the slices it shows with `useTab(selector)` (it re-renders when they change, not for the rest)
// and acts through `useTabStore().getState()`. Nothing is passed down through the page's props.

import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { TabState, TabStore } from './tab-store';

export const TabStoreContext = createContext<TabStore | null>(null);

/** The shown tab's store; throws outside a snapshot's page (a bug, not a state). */
export function useTabStore(): TabStore {
  const store = useContext(TabStoreContext);
  if (store === null) throw new Error('useTabStore outside a snapshot page');
  return store;
}

/** A slice of the shown tab's state; the component re-renders when it changes. */
export function useTab<T>(selector: (state: TabState) => T): T {
  return useStore(useTabStore(), selector);
}
