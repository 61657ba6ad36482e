// Word when the device pixel ratio changes (the window moved to another screen, the page was
// zoomed): a media query on the current ratio stops matching, and a new one is made for the next.

export function onDevicePixelRatioChange(handler: () => void): () => void {
  let query: MediaQueryList | null = null;
  const listener = (): void => {
    watch();
    handler();
  };
  const watch = (): void => {
    query?.removeEventListener('change', listener);
    query = window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
    query.addEventListener('change', listener);
  };
  watch();
  return () => query?.removeEventListener('change', listener);
}
