// The bridge the preload exposes as `window.allocscope`. Declarations only, so the renderer's
// TypeScript project can see it without compiling Electron code.

/**
 * A file main hands to the page (Open dialog, Open Recent, drop, command line, demo): the page's
 * decode worker fetches `url` (allocscope-file://snapshot/<token>, good for one request) and
 * decodes it exactly as the web build decodes a File. Main never sends the decoded snapshot.
 */
export interface SnapshotHandover {
  readonly url: string;
  /** The name to show; the path stays in main. */
  readonly fileName: string;
  /** The file's size when main could read it, so the page budgets its decodes before the fetch. */
  readonly sizeBytes: number | null;
  /**
   * The folder of ranks the file came in (an id main makes up, never the path), or null: the
   * page shows a folder's files side by side on the Ranks page, and only them.
   */
  readonly rankGroup: string | null;
}

/** How a handed-over file ended in the page: a decoded one joins Open Recent. */
export type SnapshotOutcome = 'decoded' | 'failed' | 'cancelled';

/**
 * The JSON body of a refused allocscope-file: request (any status but 200). `message` is for the
 * user: what is wrong with the file, in the same words as any other failure. When the refusal is
 * a bug in allocscope instead (a link unknown or used twice, an unexpected error), `bugReport`
 * carries what to paste into a report.
 */
export interface SnapshotRefusal {
  readonly message: string;
  readonly bugReport?: string;
}

/** A file of File › Open Recent. The path is shown to the user, who chose it. */
export interface RecentFile {
  readonly path: string;
  readonly fileName: string;
}

/** Menu items whose work happens in the page. */
export type MenuCommand = 'close-tab' | 'next-tab' | 'previous-tab';

/** What File › Export and the page's export buttons produce. */
export type ExportFormat = 'png' | 'svg' | 'json' | 'csv';

/** A file the page made, for main to write where the user chooses (Save dialog). */
export interface SaveExportRequest {
  readonly format: ExportFormat;
  /** The name the Save dialog proposes; a plain name, no folders. */
  readonly fileName: string;
  /** Text (SVG, JSON, CSV) or bytes (PNG). */
  readonly data: string | Uint8Array;
}

/** Only the name of the file written goes back to the page, never its folder. */
export type SaveExportResult =
  { readonly saved: true; readonly fileName: string } | { readonly saved: false };

export interface AllocscopeBridge {
  /**
   * Shows the native Open dialog (several files may be chosen); each chosen file arrives as a
   * hand-over of its own (its own tab).
   */
  showOpenDialog(): Promise<void>;
  /** Shows the native folder dialog; the folder's snapshots arrive as hand-overs, as ranks. */
  showOpenFolderDialog(): Promise<void>;
  /** Hands over a file of the recent list (main refuses any other path). */
  openRecentFile(path: string): void;
  /**
   * Hands a dropped file over through main, where it joins the recent files. False when the File
   * has no path on disk (made by the page, or dragged from another app): decode it as a File.
   */
  openDroppedFile(file: File): boolean;
  openDemoSnapshot(): void;
  getRecentFiles(): Promise<RecentFile[]>;
  /** Files main hands over for the page to decode. Returns the unsubscribe function. */
  onSnapshotHandover(listener: (handover: SnapshotHandover) => void): () => void;
  /** Tells main how the decode of a handed-over file ended, so that it drops the file's token. */
  settleSnapshot(url: string, outcome: SnapshotOutcome): void;
  onMenuCommand(listener: (command: MenuCommand) => void): () => void;
  /** Shows the Save dialog for an exported file and writes it; resolves once written or cancelled. */
  saveExport(request: SaveExportRequest): Promise<SaveExportResult>;
  /** File › Export › PNG/SVG/JSON/CSV, for the page to make the file. Returns the unsubscribe function. */
  onMenuExport(listener: (format: ExportFormat) => void): () => void;
  /** Tells main the page is listening, so files named on the command line can be handed over. */
  signalRendererReady(): void;
}

declare global {
  interface Window {
    /** Present in Electron only; the static web build has no bridge. */
    readonly allocscope?: AllocscopeBridge;
  }
}
