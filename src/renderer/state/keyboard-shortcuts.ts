// Every keyboard shortcut of the page, in one table: the handlers (the app, the snapshot page and
// the timeline each take the commands of their scope), the help overlay (`?`) and the README's
// table are all read from it, so they cannot disagree (a unit test compares the README with it).
// The keys of the lower views are their registry entries' (registry/lower-views.ts, which makes
// the whole table with `withViewShortcuts`): adding a view adds no line here.
// In Electron, Open is the menu's (main shows the dialog); the tab keys are shown in the menu but
// handled here, where the current tab is known.

export type ShortcutCommand =
  | 'open'
  | 'open-folder'
  | 'close-tab'
  | 'next-tab'
  | 'previous-tab'
  | 'help'
  /** Shows the lower view of this id (its entry's key). */
  | `view-${string}`
  | 'find'
  | 'lower-full-page'
  | 'moment-previous'
  | 'moment-next'
  | 'moment-back'
  | 'moment-forward'
  | 'moment-first'
  | 'moment-last'
  | 'moment-peak'
  | 'moment-oom'
  | 'zoom-in'
  | 'zoom-out'
  | 'zoom-reset'
  | 'pan-earlier'
  | 'pan-later'
  | 'escape';

/** Who handles a command: the app (files, tabs, help), the snapshot page, or its timeline. */
export type ShortcutScope = 'app' | 'page' | 'chart';

export type ShortcutGroup = 'Selected moment' | 'Timeline' | 'Views' | 'Files and tabs';

export interface KeyChord {
  /** `KeyboardEvent.key`; letters in lower case. */
  readonly key: string;
  /** Ctrl, or Cmd on macOS. */
  readonly primary?: boolean;
  /** Ctrl itself, on every platform (Ctrl+Tab is Ctrl on macOS too). */
  readonly ctrl?: boolean;
  /**
   * Shift held (true), not held (false, the default), or either ('any': symbols such as `?` or
   * `+` need Shift on some keyboards and not on others).
   */
  readonly shift?: boolean | 'any';
}

export interface Shortcut {
  readonly command: ShortcutCommand;
  readonly scope: ShortcutScope;
  readonly group: ShortcutGroup;
  /** Every chord that runs it; the first is the one shown first. */
  readonly chords: readonly KeyChord[];
  readonly description: string;
}

export const SHORTCUT_GROUPS: readonly ShortcutGroup[] = [
  'Selected moment',
  'Timeline',
  'Views',
  'Files and tabs',
];

/** The shortcuts of everything but the lower views (see withViewShortcuts). */
export const SHORTCUTS: readonly Shortcut[] = [
  {
    command: 'moment-previous',
    scope: 'page',
    group: 'Selected moment',
    chords: [{ key: 'ArrowLeft' }],
    description: 'Previous event',
  },
  {
    command: 'moment-next',
    scope: 'page',
    group: 'Selected moment',
    chords: [{ key: 'ArrowRight' }],
    description: 'Next event',
  },
  {
    command: 'moment-back',
    scope: 'page',
    group: 'Selected moment',
    chords: [{ key: 'ArrowLeft', shift: true }],
    description: 'Back 1% of the trace',
  },
  {
    command: 'moment-forward',
    scope: 'page',
    group: 'Selected moment',
    chords: [{ key: 'ArrowRight', shift: true }],
    description: 'Forward 1% of the trace',
  },
  {
    command: 'moment-first',
    scope: 'page',
    group: 'Selected moment',
    chords: [{ key: 'Home' }],
    description: 'Before the first event',
  },
  {
    command: 'moment-last',
    scope: 'page',
    group: 'Selected moment',
    chords: [{ key: 'End' }],
    description: 'The last event',
  },
  {
    command: 'moment-peak',
    scope: 'page',
    group: 'Selected moment',
    chords: [{ key: 'p' }],
    description: 'The active peak',
  },
  {
    command: 'moment-oom',
    scope: 'page',
    group: 'Selected moment',
    chords: [{ key: 'o' }],
    description: 'The first out-of-memory event',
  },
  {
    command: 'zoom-in',
    scope: 'chart',
    group: 'Timeline',
    chords: [{ key: '+', shift: 'any' }, { key: '=' }, { key: 'w' }],
    description: 'Zoom in (the wheel zooms about the pointer)',
  },
  {
    command: 'zoom-out',
    scope: 'chart',
    group: 'Timeline',
    chords: [{ key: '-' }, { key: '_', shift: 'any' }, { key: 's' }],
    description: 'Zoom out',
  },
  {
    command: 'pan-earlier',
    scope: 'chart',
    group: 'Timeline',
    chords: [{ key: 'a' }, { key: 'ArrowLeft', primary: true }],
    description: 'Pan earlier (Shift+wheel, or drag the plot)',
  },
  {
    command: 'pan-later',
    scope: 'chart',
    group: 'Timeline',
    chords: [{ key: 'd' }, { key: 'ArrowRight', primary: true }],
    description: 'Pan later',
  },
  {
    command: 'zoom-reset',
    scope: 'chart',
    group: 'Timeline',
    chords: [{ key: '0' }],
    description: 'Show the whole trace',
  },
  {
    command: 'escape',
    scope: 'chart',
    group: 'Timeline',
    chords: [{ key: 'Escape' }],
    description: 'Clear the selected allocation; without one, show the whole trace',
  },
  {
    command: 'find',
    scope: 'page',
    group: 'Views',
    chords: [{ key: 'f', primary: true }],
    description: 'Search frames, files or an address (in Who holds it)',
  },
  {
    command: 'lower-full-page',
    scope: 'page',
    group: 'Views',
    chords: [{ key: 'm' }],
    description: 'The view below the timeline on the whole page, and back',
  },
  {
    command: 'open',
    scope: 'app',
    group: 'Files and tabs',
    chords: [{ key: 'o', primary: true }],
    description: 'Open snapshots',
  },
  {
    command: 'open-folder',
    scope: 'app',
    group: 'Files and tabs',
    chords: [{ key: 'o', primary: true, shift: true }],
    description: 'Open a folder of ranks (one snapshot per rank)',
  },
  {
    command: 'close-tab',
    scope: 'app',
    group: 'Files and tabs',
    chords: [{ key: 'w', primary: true }],
    description: 'Close the tab',
  },
  {
    command: 'next-tab',
    scope: 'app',
    group: 'Files and tabs',
    chords: [
      { key: 'Tab', ctrl: true },
      { key: 'PageDown', ctrl: true },
    ],
    description: 'Next tab',
  },
  {
    command: 'previous-tab',
    scope: 'app',
    group: 'Files and tabs',
    chords: [
      { key: 'Tab', ctrl: true, shift: true },
      { key: 'PageUp', ctrl: true },
    ],
    description: 'Previous tab',
  },
  {
    command: 'help',
    scope: 'app',
    group: 'Files and tabs',
    chords: [{ key: '?', shift: 'any' }],
    description: 'This list of shortcuts and the glossary',
  },
];

/** What a lower view gives the table: its id, its key and what the help says it shows. */
export interface ViewShortcut {
  readonly id: string;
  readonly key: string;
  readonly help: string;
}

/** The whole table: `base` with the lower views' keys first in the Views group, in their order. */
export function withViewShortcuts(
  base: readonly Shortcut[],
  views: readonly ViewShortcut[],
): readonly Shortcut[] {
  const viewShortcuts = views.map((view): Shortcut => ({
    command: `view-${view.id}`,
    scope: 'page',
    group: 'Views',
    chords: [{ key: view.key }],
    description: view.help,
  }));
  const at = base.findIndex((entry) => entry.group === 'Views');
  const before = at < 0 ? base.length : at;
  return [...base.slice(0, before), ...viewShortcuts, ...base.slice(before)];
}

/** The lower view a command shows (`view-<id>`), or null for other commands. */
export function viewOfCommand(command: ShortcutCommand): string | null {
  return command.startsWith('view-') ? command.slice('view-'.length) : null;
}

/** What the pointer does, listed in the help beside the keys (no handler reads it). */
export const POINTER_GESTURES: readonly { readonly gesture: string; readonly does: string }[] = [
  { gesture: 'Click a band', does: 'Select that allocation: its stack opens in the side panel' },
  { gesture: 'Click elsewhere on the plot', does: 'Select that moment' },
  { gesture: 'Wheel', does: 'Zoom about the pointer' },
  { gesture: 'Shift+wheel, or drag the plot', does: 'Pan' },
  { gesture: 'Drag across the strip under the plot', does: 'Choose the visible range' },
  {
    gesture: 'Drag a divider (or focus it and press the arrows)',
    does: 'Resize the panes; double-click it for the default size',
  },
];

export interface KeyStroke {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
}

function normalKey(key: string): string {
  return key.length === 1 ? key.toLowerCase() : key;
}

export function chordMatches(chord: KeyChord, stroke: KeyStroke): boolean {
  if (stroke.altKey) return false;
  if (normalKey(stroke.key) !== chord.key) return false;
  const primary = stroke.ctrlKey || stroke.metaKey;
  if (chord.ctrl === true) {
    if (!stroke.ctrlKey || stroke.metaKey) return false;
  } else if (primary !== (chord.primary === true)) {
    return false;
  }
  const shift = chord.shift ?? false;
  return shift === 'any' || shift === stroke.shiftKey;
}

/** The shortcut a key press runs, if any. */
export function shortcutOf(
  stroke: KeyStroke,
  table: readonly Shortcut[] = SHORTCUTS,
): Shortcut | null {
  return table.find((entry) => entry.chords.some((chord) => chordMatches(chord, stroke))) ?? null;
}

/** The command of a key press in `scope`, or null (another scope's key, or no shortcut). */
export function commandOf(
  stroke: KeyStroke,
  scope: ShortcutScope,
  table: readonly Shortcut[] = SHORTCUTS,
): ShortcutCommand | null {
  const shortcut = shortcutOf(stroke, table);
  return shortcut !== null && shortcut.scope === scope ? shortcut.command : null;
}

/** The first chord of a command, in words ("Ctrl+O"), for buttons' titles. */
export function keysOf(
  command: ShortcutCommand,
  platform: KeyPlatform = 'other',
  table: readonly Shortcut[] = SHORTCUTS,
): string {
  const shortcut = table.find((entry) => entry.command === command);
  return shortcut === undefined ? '' : chordLabel(shortcut.chords[0]!, platform);
}

/**
 * How a chord is written: for macOS ("⌘O"), elsewhere ("Ctrl+O"), or for both at once in the
 * README ("Ctrl/Cmd+O").
 */
export type KeyPlatform = 'mac' | 'other' | 'both';

const KEY_WORDS: Readonly<Record<string, string>> = {
  ArrowLeft: '←',
  ArrowRight: '→',
  ArrowUp: '↑',
  ArrowDown: '↓',
  Escape: 'Esc',
  PageUp: 'PageUp',
  PageDown: 'PageDown',
};

function keyWord(key: string): string {
  return KEY_WORDS[key] ?? (key.length === 1 ? key.toUpperCase() : key);
}

export function chordLabel(chord: KeyChord, platform: KeyPlatform): string {
  const parts: string[] = [];
  if (chord.ctrl === true) parts.push('Ctrl');
  if (chord.primary === true)
    parts.push(platform === 'mac' ? '⌘' : platform === 'both' ? 'Ctrl/Cmd' : 'Ctrl');
  if (chord.shift === true) parts.push('Shift');
  const key = keyWord(chord.key);
  if (platform === 'mac' && chord.primary === true && chord.ctrl !== true && chord.shift !== true)
    return `⌘${key}`;
  return [...parts, key].join('+');
}

/** The shortcuts as a Markdown table: the README holds exactly this (a unit test checks). */
export function shortcutsMarkdown(table: readonly Shortcut[]): string {
  const rows = table.map((entry) => {
    const keys = entry.chords.map((chord) => `\`${chordLabel(chord, 'both')}\``).join(' ');
    return `| ${entry.group} | ${keys} | ${entry.description} |`;
  });
  return ['| | keys | does |', '| --- | --- | --- |', ...rows].join('\n');
}

export function currentKeyPlatform(): KeyPlatform {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)
    ? 'mac'
    : 'other';
}

/**
 * Whether a key press may run a shortcut where it happened: not while typing (text fields,
 * selects, controls with their own arrows), nor inside a modal dialog, nor when a control took it
 * already. Shortcuts with Ctrl/Cmd also work from text fields (Ctrl+O while a field is focused).
 */
export function acceptsShortcut(
  event: KeyStroke & { target: EventTarget | null; defaultPrevented: boolean },
): boolean {
  if (event.defaultPrevented) return false;
  if (typeof Element === 'undefined' || !(event.target instanceof Element)) return true;
  const target = event.target;
  if (target.closest('dialog[open]') !== null) return false;
  if (event.ctrlKey || event.metaKey) return true;
  if (target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]'))
    return false;
  return (
    target.closest('[role="slider"], [role="spinbutton"], [role="listbox"], [role="separator"]') ===
    null
  );
}
