// What a canvas chart listens to (pointer events, its box's size, the colour scheme), kept in one
// place so destroying the chart releases all of it.

export class ChartListeners {
  private readonly cleanups: (() => void)[] = [];

  on<K extends keyof HTMLElementEventMap>(
    target: HTMLElement,
    type: K,
    handler: (event: HTMLElementEventMap[K]) => void,
  ): void {
    target.addEventListener(type, handler);
    this.cleanups.push(() => target.removeEventListener(type, handler));
  }

  onResize(element: Element, handler: () => void): void {
    const observer = new ResizeObserver(handler);
    observer.observe(element);
    this.cleanups.push(() => observer.disconnect());
  }

  /** Light and dark themes switch the CSS colours the chart reads. */
  onColorSchemeChange(handler: () => void): void {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    query.addEventListener('change', handler);
    this.cleanups.push(() => query.removeEventListener('change', handler));
  }

  releaseAll(): void {
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }
}
