// Runs the keyboard shortcuts of one scope (keyboard-shortcuts.ts) while the component is mounted.
// `run` returns whether it used the command: a used key does nothing else (no scrolling, no
// browser shortcut).

import { useEffectEvent, useLayoutEffect } from 'react';
import {
  acceptsShortcut,
  commandOf,
  SHORTCUTS,
  type Shortcut,
  type ShortcutCommand,
  type ShortcutScope,
} from './keyboard-shortcuts';

/** `table`: the page's whole table (with the lower views' keys); the app's own keys by default. */
export function useShortcuts(
  scope: Exclude<ShortcutScope, 'chart'>,
  run: (command: ShortcutCommand, event: KeyboardEvent) => boolean,
  table: readonly Shortcut[] = SHORTCUTS,
): void {
  const runCommand = useEffectEvent(run);
  // A layout effect: the keys work as soon as the page says it is ready.
  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (!acceptsShortcut(event)) return;
      const command = commandOf(event, scope, table);
      if (command !== null && runCommand(command, event)) event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [scope, table]);
}
