// The canvas host against stand-ins for the browser (animation frames, ResizeObserver, media
// queries, canvases): one draw per layer per frame however many changes came in, sizes and the
// device pixel ratio, the theme rebuilt once per switch, and everything released on destroy.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Palette } from '@shared/render/palette';
import { CanvasHost, type CanvasChartSpec, type LayerBox } from './canvas-host';

class FakeMediaQuery {
  matches: boolean;
  readonly listeners = new Set<() => void>();
  constructor(matches: boolean) {
    this.matches = matches;
  }
  addEventListener(_type: 'change', listener: () => void): void {
    this.listeners.add(listener);
  }
  removeEventListener(_type: 'change', listener: () => void): void {
    this.listeners.delete(listener);
  }
  fire(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

interface Browser {
  frames: Map<number, () => void>;
  runFrame(): void;
  resize(): void;
  observers: Set<{ callback: () => void; elements: Element[] }>;
  dark: FakeMediaQuery;
  resolution: FakeMediaQuery[];
  window: { devicePixelRatio: number };
}

let browser: Browser;

beforeEach(() => {
  const frames = new Map<number, () => void>();
  let nextFrame = 1;
  const observers = new Set<{ callback: () => void; elements: Element[] }>();
  const dark = new FakeMediaQuery(false);
  const resolution: FakeMediaQuery[] = [];
  const window = {
    devicePixelRatio: 1,
    matchMedia: (query: string) => {
      if (query.includes('prefers-color-scheme')) return dark;
      const media = new FakeMediaQuery(true);
      resolution.push(media);
      return media;
    },
  };
  vi.stubGlobal('window', window);
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => {
    frames.set(nextFrame, callback);
    return nextFrame++;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => frames.delete(id));
  vi.stubGlobal(
    'ResizeObserver',
    class {
      private readonly entry: { callback: () => void; elements: Element[] };
      constructor(callback: () => void) {
        this.entry = { callback, elements: [] };
        observers.add(this.entry);
      }
      observe(element: Element): void {
        this.entry.elements.push(element);
      }
      disconnect(): void {
        observers.delete(this.entry);
      }
    },
  );
  browser = {
    frames,
    observers,
    dark,
    resolution,
    window,
    runFrame() {
      const pending = [...frames.entries()];
      frames.clear();
      for (const [, callback] of pending) callback();
    },
    resize() {
      for (const observer of observers) observer.callback();
    },
  };
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function fakeCanvas(): HTMLCanvasElement & { transforms: number[][] } {
  const transforms: number[][] = [];
  const context = {
    setTransform: (...values: number[]) => transforms.push(values),
    clearRect: () => {},
  };
  return {
    style: {},
    width: 0,
    height: 0,
    transforms,
    getContext: () => context,
  } as unknown as HTMLCanvasElement & { transforms: number[][] };
}

type Layer = 'plot' | 'overlay';

function makeChart(box: { width: number; height: number }, ready = true) {
  const draws: { layer: Layer; width: number; theme: string }[] = [];
  const themes: string[] = [];
  const canvases = { plot: fakeCanvas(), overlay: fakeCanvas() };
  const state = { ready, resized: 0, prepared: 0 };
  const spec: CanvasChartSpec<string, Layer> = {
    observe: [{} as Element],
    layers: {
      plot: {
        canvas: canvases.plot,
        draw: (_context, size, theme) => draws.push({ layer: 'plot', width: size.width, theme }),
      },
      overlay: {
        canvas: canvases.overlay,
        draw: (_context, size, theme) => draws.push({ layer: 'overlay', width: size.width, theme }),
      },
    },
    measure: (): Record<Layer, LayerBox> => ({
      plot: { left: 10, top: 5, ...box },
      overlay: { left: 10, top: 5, ...box },
    }),
    theme: (palette: Palette) => {
      themes.push(palette.name);
      return palette.name;
    },
    ready: () => state.ready,
    resized: () => state.resized++,
    prepare: () => state.prepared++,
  };
  const host = new CanvasHost(spec);
  return { host, draws, themes, canvases, state };
}

describe('CanvasHost', () => {
  it('draws every layer once on the first frame, placed and sized', () => {
    const { draws, canvases, state } = makeChart({ width: 200, height: 100 });
    browser.runFrame();
    expect(draws.map((d) => d.layer)).toEqual(['plot', 'overlay']);
    expect(state.resized).toBe(1);
    expect(state.prepared).toBe(1);
    expect(canvases.plot.style.left).toBe('10px');
    expect(canvases.plot.style.width).toBe('200px');
    expect(canvases.plot.width).toBe(200);
    expect(canvases.plot.height).toBe(100);
  });

  it('coalesces changes into one frame and draws only the marked layers', () => {
    const { host, draws } = makeChart({ width: 200, height: 100 });
    browser.runFrame();
    draws.length = 0;
    host.invalidate('overlay');
    host.invalidate('overlay');
    host.invalidate('overlay');
    expect(browser.frames.size).toBe(1);
    browser.runFrame();
    expect(draws.map((d) => d.layer)).toEqual(['overlay']);
    browser.runFrame();
    expect(draws).toHaveLength(1);
  });

  it('keeps marked work while the chart is not ready', () => {
    const { host, draws, state } = makeChart({ width: 200, height: 100 }, false);
    browser.runFrame();
    expect(draws).toEqual([]);
    state.ready = true;
    host.invalidate('overlay');
    browser.runFrame();
    expect(draws.map((d) => d.layer)).toEqual(['plot', 'overlay']);
  });

  it('redraws everything after a resize that changes a size, nothing after one that does not', () => {
    const box = { width: 200, height: 100 };
    const { draws, state } = makeChart(box);
    browser.runFrame();
    draws.length = 0;
    browser.resize();
    browser.runFrame();
    expect(draws).toEqual([]);
    box.width = 300;
    browser.resize();
    browser.runFrame();
    expect(draws.map((d) => [d.layer, d.width])).toEqual([
      ['plot', 300],
      ['overlay', 300],
    ]);
    expect(state.resized).toBe(2);
  });

  it('sizes the backing store for a new device pixel ratio', () => {
    const { canvases, draws } = makeChart({ width: 200, height: 100 });
    browser.runFrame();
    draws.length = 0;
    browser.window.devicePixelRatio = 2;
    browser.resolution.at(-1)!.fire();
    browser.runFrame();
    expect(draws).toHaveLength(2);
    expect(canvases.plot.width).toBe(400);
    expect(canvases.plot.height).toBe(200);
    expect(canvases.plot.transforms.at(-1)).toEqual([2, 0, 0, 2, 0, 0]);
    // Watching the new ratio now.
    expect(browser.resolution.at(-1)!.listeners.size).toBe(1);
    expect(browser.resolution.at(-2)!.listeners.size).toBe(0);
  });

  it('builds the theme once per switch and draws every layer in it', () => {
    const { draws, themes } = makeChart({ width: 200, height: 100 });
    browser.runFrame();
    draws.length = 0;
    expect(themes).toEqual(['light']);
    browser.dark.matches = true;
    browser.dark.fire();
    browser.runFrame();
    expect(themes).toEqual(['light', 'dark']);
    expect(draws.map((d) => [d.layer, d.theme])).toEqual([
      ['plot', 'dark'],
      ['overlay', 'dark'],
    ]);
  });

  it('releases its observers, media queries, listeners and pending frame on destroy', () => {
    const { host } = makeChart({ width: 200, height: 100 });
    const target = { addEventListener: vi.fn(), removeEventListener: vi.fn() };
    host.listen(target as unknown as HTMLElement, 'click', () => {});
    expect(browser.frames.size).toBe(1);
    host.destroy();
    expect(browser.frames.size).toBe(0);
    expect(browser.observers.size).toBe(0);
    expect(browser.dark.listeners.size).toBe(0);
    expect(browser.resolution.at(-1)!.listeners.size).toBe(0);
    expect(target.removeEventListener).toHaveBeenCalledWith(
      'click',
      expect.any(Function),
      undefined,
    );
  });
});
