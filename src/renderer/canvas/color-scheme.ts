// Which theme the system asks for (prefers-color-scheme), and word when it switches: the page's
// CSS variables and every canvas chart follow it.

import type { ThemeName } from '@shared/render/palette';

const DARK_QUERY = '(prefers-color-scheme: dark)';

export function currentThemeName(): ThemeName {
  return window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

/** Calls `handler` with the new theme after every switch; returns the unsubscribe. */
export function onThemeNameChange(handler: (name: ThemeName) => void): () => void {
  const query = window.matchMedia(DARK_QUERY);
  const listener = (): void => handler(query.matches ? 'dark' : 'light');
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}
