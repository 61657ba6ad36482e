// The bridge the preload exposes as `window.allocscope`. Declarations only, so the renderer's
// TypeScript project can see it without compiling Electron code.

/** A snapshot file the user picked, as far as the renderer needs to know it (no paths). */
export interface SnapshotFileInfo {
  readonly fileName: string;
  readonly sizeBytes: number;
}

export interface AllocscopeBridge {
  /** Shows the native Open dialog; resolves null when the user cancels. */
  showOpenDialog(): Promise<SnapshotFileInfo | null>;
  /** Files opened from the menu or the command line. Returns the unsubscribe function. */
  onSnapshotOpened(listener: (file: SnapshotFileInfo) => void): () => void;
  /** Tells main the page is listening, so files named on the command line can be sent. */
  signalRendererReady(): void;
}

declare global {
  interface Window {
    /** Present in Electron only; the static web build has no bridge. */
    readonly allocscope?: AllocscopeBridge;
  }
}
