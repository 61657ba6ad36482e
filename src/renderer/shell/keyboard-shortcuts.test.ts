import { describe, expect, it } from 'vitest';
import { shortcutOf, type KeyStroke } from './keyboard-shortcuts';

const key = (key: string, modifiers: Partial<KeyStroke> = {}): KeyStroke => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...modifiers,
});

describe('shortcutOf', () => {
  it('knows Ctrl/Cmd+O and Ctrl/Cmd+W', () => {
    expect(shortcutOf(key('o', { ctrlKey: true }))).toBe('open');
    expect(shortcutOf(key('O', { metaKey: true }))).toBe('open');
    expect(shortcutOf(key('w', { ctrlKey: true }))).toBe('close-tab');
    expect(shortcutOf(key('w', { metaKey: true }))).toBe('close-tab');
  });

  it('cycles tabs with Ctrl+Tab, Ctrl+Shift+Tab and Ctrl+PageDown/PageUp', () => {
    expect(shortcutOf(key('Tab', { ctrlKey: true }))).toBe('next-tab');
    expect(shortcutOf(key('Tab', { ctrlKey: true, shiftKey: true }))).toBe('previous-tab');
    expect(shortcutOf(key('PageDown', { ctrlKey: true }))).toBe('next-tab');
    expect(shortcutOf(key('PageUp', { ctrlKey: true }))).toBe('previous-tab');
  });

  it('leaves every other key alone', () => {
    expect(shortcutOf(key('o'))).toBeNull();
    expect(shortcutOf(key('Tab'))).toBeNull();
    expect(shortcutOf(key('o', { ctrlKey: true, altKey: true }))).toBeNull();
    expect(shortcutOf(key('O', { ctrlKey: true, shiftKey: true }))).toBeNull();
    expect(shortcutOf(key('w', { shiftKey: true }))).toBeNull();
  });
});
