import { describe, expect, it } from 'vitest';
// The README as text (Vite's ?raw), so this test needs no file system.
import readme from '../../../README.md?raw';
import { PAGE_SHORTCUTS } from '../registry/lower-views';
import {
  SHORTCUT_GROUPS,
  acceptsShortcut,
  chordLabel,
  commandOf,
  keysOf,
  shortcutOf,
  shortcutsMarkdown,
  type KeyStroke,
  type ShortcutCommand,
} from './keyboard-shortcuts';

const key = (key: string, modifiers: Partial<KeyStroke> = {}): KeyStroke => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...modifiers,
});

// The whole table: the app's keys and the lower views' (registry/lower-views.ts).
const SHORTCUTS = PAGE_SHORTCUTS;
const command = (stroke: KeyStroke): ShortcutCommand | null =>
  shortcutOf(stroke, SHORTCUTS)?.command ?? null;

describe('the shortcut table', () => {
  it('knows Ctrl/Cmd+O and Ctrl/Cmd+W', () => {
    expect(command(key('o', { ctrlKey: true }))).toBe('open');
    expect(command(key('O', { metaKey: true }))).toBe('open');
    expect(command(key('w', { ctrlKey: true }))).toBe('close-tab');
    expect(command(key('w', { metaKey: true }))).toBe('close-tab');
  });

  it('cycles tabs with Ctrl+Tab, Ctrl+Shift+Tab and Ctrl+PageDown/PageUp (Ctrl on macOS too)', () => {
    expect(command(key('Tab', { ctrlKey: true }))).toBe('next-tab');
    expect(command(key('Tab', { ctrlKey: true, shiftKey: true }))).toBe('previous-tab');
    expect(command(key('PageDown', { ctrlKey: true }))).toBe('next-tab');
    expect(command(key('PageUp', { ctrlKey: true }))).toBe('previous-tab');
    expect(command(key('Tab', { metaKey: true }))).toBeNull();
  });

  it('steps the moment with the arrows, pans with Ctrl+arrows, A and D', () => {
    expect(commandOf(key('ArrowLeft'), 'page')).toBe('moment-previous');
    expect(commandOf(key('ArrowRight', { shiftKey: true }), 'page')).toBe('moment-forward');
    expect(commandOf(key('ArrowLeft', { ctrlKey: true }), 'chart')).toBe('pan-earlier');
    expect(commandOf(key('ArrowRight', { metaKey: true }), 'chart')).toBe('pan-later');
    expect(commandOf(key('a'), 'chart')).toBe('pan-earlier');
    expect(commandOf(key('D'), 'chart')).toBe('pan-later');
    // Each scope takes only its own commands.
    expect(commandOf(key('ArrowLeft'), 'chart')).toBeNull();
    expect(commandOf(key('a'), 'page')).toBeNull();
  });

  it('zooms with + = W and - _ S whether or not the keyboard needs Shift for the symbol', () => {
    for (const stroke of [key('+'), key('+', { shiftKey: true }), key('='), key('w')])
      expect(commandOf(stroke, 'chart')).toBe('zoom-in');
    for (const stroke of [key('-'), key('_', { shiftKey: true }), key('s')])
      expect(commandOf(stroke, 'chart')).toBe('zoom-out');
    expect(commandOf(key('0'), 'chart')).toBe('zoom-reset');
    expect(commandOf(key('Escape'), 'chart')).toBe('escape');
  });

  it('goes to the peak and the OOM, picks views with 1-5, opens the help with ?', () => {
    expect(commandOf(key('p'), 'page')).toBe('moment-peak');
    expect(commandOf(key('o'), 'page')).toBe('moment-oom');
    expect(['1', '2', '3', '4', '5'].map((digit) => command(key(digit)))).toEqual([
      'view-largest',
      'view-segments',
      'view-fragmentation',
      'view-oom',
      'view-holders',
    ]);
    expect(commandOf(key('?', { shiftKey: true }), 'app')).toBe('help');
    expect(commandOf(key('?'), 'app')).toBe('help');
  });

  it('leaves every other key alone', () => {
    expect(command(key('Tab'))).toBeNull();
    expect(command(key('o', { ctrlKey: true, altKey: true }))).toBeNull();
    expect(command(key('O', { ctrlKey: true, shiftKey: true }))).toBe('open-folder');
    expect(command(key('O', { ctrlKey: true, shiftKey: true, altKey: true }))).toBeNull();
    expect(command(key('w', { shiftKey: true }))).toBeNull();
    expect(command(key('ArrowLeft', { altKey: true }))).toBeNull();
    expect(command(key('x'))).toBeNull();
  });

  it('gives every key press at most one command', () => {
    const seen = new Map<string, ShortcutCommand>();
    for (const entry of SHORTCUTS)
      for (const chord of entry.chords) {
        const shifts = chord.shift === 'any' ? [false, true] : [chord.shift ?? false];
        const primaries = chord.primary === true ? ['ctrlKey', 'metaKey'] : [null];
        for (const shiftKey of shifts)
          for (const primary of primaries) {
            const stroke = key(chord.key, {
              shiftKey,
              ctrlKey: chord.ctrl === true || primary === 'ctrlKey',
              metaKey: primary === 'metaKey',
            });
            const id = JSON.stringify(stroke);
            expect(seen.get(id) ?? entry.command, id).toBe(entry.command);
            seen.set(id, entry.command);
            expect(command(stroke), id).toBe(entry.command);
          }
      }
  });

  it('puts every shortcut in a group the help shows', () => {
    for (const entry of SHORTCUTS) expect(SHORTCUT_GROUPS).toContain(entry.group);
    expect(new Set(SHORTCUTS.map((entry) => entry.command)).size).toBe(SHORTCUTS.length);
  });

  it('writes chords for each platform', () => {
    expect(chordLabel({ key: 'o', primary: true }, 'mac')).toBe('⌘O');
    expect(chordLabel({ key: 'o', primary: true }, 'other')).toBe('Ctrl+O');
    expect(chordLabel({ key: 'o', primary: true }, 'both')).toBe('Ctrl/Cmd+O');
    expect(chordLabel({ key: 'Tab', ctrl: true, shift: true }, 'mac')).toBe('Ctrl+Shift+Tab');
    expect(chordLabel({ key: 'ArrowLeft', shift: true }, 'other')).toBe('Shift+←');
    expect(keysOf('view-oom', 'other', SHORTCUTS)).toBe('4');
  });
});

describe('acceptsShortcut', () => {
  const event = (target: EventTarget | null, modifiers: Partial<KeyStroke> = {}) => ({
    ...key('a', modifiers),
    target,
    defaultPrevented: false,
  });

  it('takes keys that no control took', () => {
    expect(acceptsShortcut(event(null))).toBe(true);
    expect(acceptsShortcut({ ...event(null), defaultPrevented: true })).toBe(false);
  });
});

/** A Markdown table's rows without the padding a formatter adds. */
function tableRows(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => line.replace(/\s*\|\s*/g, '|').replace(/-{3,}/g, '---'));
}

describe('the README', () => {
  it('lists exactly the table of shortcuts, in its order', () => {
    const expected = tableRows(shortcutsMarkdown(SHORTCUTS));
    const rows = tableRows(readme);
    const start = rows.indexOf(expected[0]!);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(rows.slice(start, start + expected.length)).toEqual(expected);
    // Nothing more in that table: no row of a shortcut the page does not have.
    const after = rows[start + expected.length];
    for (const group of SHORTCUT_GROUPS) expect(after ?? '').not.toMatch(`|${group}|`);
  });
});
