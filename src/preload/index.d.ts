// The bridge the preload exposes as `window.allocscope`. Declarations only, so the renderer's
// TypeScript project can see it without compiling Electron code.

import type { SnapshotView } from '@shared/view/snapshot-view';

import type { DecodeStage } from '@shared/view/decode-worker-reply';

export type { DecodeStage };

/** Decodes are numbered by main; the page names them back when it cancels. */
export interface DecodeStarted {
  readonly jobId: number;
  readonly fileName: string;
  readonly totalBytes: number | null;
}

export interface DecodeProgressUpdate {
  readonly jobId: number;
  readonly stage: DecodeStage;
  readonly bytesRead: number;
  readonly totalBytes: number | null;
}

export interface DecodeDone {
  readonly jobId: number;
  readonly view: SnapshotView;
}

/**
 * `message` is for the user: it says what is wrong with the file, not where in our code. When the
 * failure is a bug in allocscope instead, `bugReport` carries the error and its stack.
 */
export interface DecodeFailed {
  readonly jobId: number;
  readonly fileName: string;
  readonly message: string;
  readonly bugReport?: string;
}

export type BridgeDecodeEvent =
  | ({ readonly type: 'started' } & DecodeStarted)
  | ({ readonly type: 'progress' } & DecodeProgressUpdate)
  | ({ readonly type: 'done' } & DecodeDone)
  | ({ readonly type: 'failed' } & DecodeFailed);

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
  /** Shows the native Open dialog; the chosen file arrives as decode events. */
  showOpenDialog(): Promise<void>;
  /** Decodes a file of the recent list (main refuses any other path). */
  openRecentFile(path: string): void;
  /**
   * Decodes a dropped file in main, where it joins the recent files. False when the File has no
   * path on disk (made by the page, or dragged from another app): decode it in the page instead.
   */
  openDroppedFile(file: File): boolean;
  openDemoSnapshot(): void;
  cancelDecode(jobId: number): void;
  getRecentFiles(): Promise<RecentFile[]>;
  /** Decode progress and results. Returns the unsubscribe function. */
  onDecodeEvent(listener: (event: BridgeDecodeEvent) => void): () => void;
  onMenuCommand(listener: (command: MenuCommand) => void): () => void;
  /** Shows the Save dialog for an exported file and writes it; resolves once written or cancelled. */
  saveExport(request: SaveExportRequest): Promise<SaveExportResult>;
  /** File › Export › PNG/SVG/JSON/CSV, for the page to make the file. Returns the unsubscribe function. */
  onMenuExport(listener: (format: ExportFormat) => void): () => void;
  /** Tells main the page is listening, so files named on the command line can be decoded. */
  signalRendererReady(): void;
}

declare global {
  interface Window {
    /** Present in Electron only; the static web build has no bridge. */
    readonly allocscope?: AllocscopeBridge;
  }
}
