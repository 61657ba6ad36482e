// What the UI may ask of its host. Two hosts implement it: Electron (through the preload bridge,
// files read by main) and a plain browser (File objects, read in the page). Views only ever see
// this interface, so the same components ship in both builds.

/** A snapshot file the user chose: enough to show, not yet decoded. */
export interface SnapshotFile {
  readonly fileName: string;
  readonly sizeBytes: number;
}

export interface SnapshotClient {
  readonly host: 'electron' | 'web';
  /** Lets the user pick a snapshot; resolves null when they cancel. */
  openSnapshot(): Promise<SnapshotFile | null>;
  /**
   * Files that arrive without the page asking (the File menu, the command line). Subscribing also
   * tells the host the page is ready for them. Returns the unsubscribe function.
   */
  onSnapshotOpened(listener: (file: SnapshotFile) => void): () => void;
}
