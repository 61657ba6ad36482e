import { afterEach, describe, expect, it, vi } from 'vitest';
import { paletteCssVariables } from '@shared/render/palette-css';
import { applyPagePalette } from './page-palette';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('applyPagePalette', () => {
  it('writes the current theme’s variables onto the root, and the other theme’s on a switch', () => {
    const listeners = new Set<() => void>();
    const query = {
      matches: false,
      addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
    };
    vi.stubGlobal('window', { matchMedia: () => query });
    const properties = new Map<string, string>();
    const root = {
      style: { setProperty: (name: string, value: string) => properties.set(name, value) },
    } as unknown as HTMLElement;

    const stop = applyPagePalette(root);
    expect(Object.fromEntries(properties)).toEqual(paletteCssVariables('light'));

    query.matches = true;
    for (const listener of listeners) listener();
    expect(Object.fromEntries(properties)).toEqual(paletteCssVariables('dark'));

    stop();
    expect(listeners.size).toBe(0);
  });
});
