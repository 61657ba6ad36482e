// What a view under the timeline is, in one entry: its id, its key, its tab's words, its help
// line, the component that draws it and what it exports (PNG/SVG of its picture, CSV, JSON) with
// the functions that make them. Each view writes its entry in its own folder
// (e.g. holders/holders-view-entry.tsx); the one list of them is registry/lower-views.ts, which
// the keyboard shortcuts, the page, the lower views' tabs, the export bar and the help read.

import type { ComponentType } from 'react';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import type { AllocatorStateIndex } from '@shared/state/allocator-state';
import type { SnapshotTab } from '../state/app-state';
import type { ExportContext } from './export-files';

/** What every lower view is given; the rest of what it shows it reads from the tab's store. */
export interface LowerViewProps {
  readonly snapshot: AnalyzedSnapshot;
  readonly device: AnalyzedDevice;
  /** The allocator's states (null until built, after the first paint). */
  readonly stateIndex: AllocatorStateIndex | null;
  /** The selected moment (the page's default when none was chosen). */
  readonly moment: number;
  readonly tab: SnapshotTab;
  /** Every open snapshot (this one too): what the Compare view offers. */
  readonly openSnapshots: readonly SnapshotTab[];
}

/** A view's picture (PNG and SVG), as it is shown. */
export interface PictureExport {
  /** What its files are named after: `<base>.cuda0.<name>.svg`. */
  readonly name: string;
  /** What the buttons say they export ("the segments"). */
  readonly words: string;
  /** The element on the page whose size the picture takes (a CSS selector). */
  readonly element: string;
  /** The picture as a standalone SVG document; its title names the file, device and moment. */
  svg(context: ExportContext): Promise<string>;
}

/** A view's data as a file (CSV or JSON). */
export interface DataExport {
  /** What the button says it exports (its tooltip and accessible name). */
  title(context: ExportContext): string;
  fileName(context: ExportContext): string;
  data(context: ExportContext): Promise<string>;
}

export interface LowerViewExports {
  readonly picture: PictureExport | null;
  readonly csv: DataExport | null;
  readonly json: DataExport | null;
}

export interface LowerViewEntry {
  readonly id: string;
  /** The key that shows it (`KeyboardEvent.key`, e.g. "5"). */
  readonly key: string;
  /** Its tab's label. */
  readonly label: string;
  /** Its tab's tooltip. */
  readonly title: string;
  /** Its line in the keyboard help and the README's table of shortcuts. */
  readonly help: string;
  /** What clicking the timeline does for this view: the hint in the timeline's tooltip. */
  readonly clickHint: string;
  readonly component: ComponentType<LowerViewProps>;
  readonly exports: LowerViewExports;
  /**
   * The view draws the allocator's segments and blocks: on a file that records none (a PyTorch
   * profiler trace) the page says so in its place, and offers no picture of it.
   */
  readonly needsSegments?: true;
}
