// The page's own shortcuts. In Electron, Open is the menu's (main shows the dialog); the tab keys
// are shown in the menu but handled here, where the current tab is known.

export type ShortcutCommand = 'open' | 'close-tab' | 'next-tab' | 'previous-tab';

export interface KeyStroke {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
}

export function shortcutOf(stroke: KeyStroke): ShortcutCommand | null {
  if (stroke.altKey) return null;
  const primary = stroke.ctrlKey || stroke.metaKey; // Ctrl, or Cmd on macOS
  const key = stroke.key.length === 1 ? stroke.key.toLowerCase() : stroke.key;
  if (primary && !stroke.shiftKey && key === 'o') return 'open';
  if (primary && !stroke.shiftKey && key === 'w') return 'close-tab';
  if (stroke.ctrlKey && key === 'Tab') return stroke.shiftKey ? 'previous-tab' : 'next-tab';
  if (stroke.ctrlKey && !stroke.shiftKey && key === 'PageDown') return 'next-tab';
  if (stroke.ctrlKey && !stroke.shiftKey && key === 'PageUp') return 'previous-tab';
  return null;
}
