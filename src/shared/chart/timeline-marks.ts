// Every kind of mark the timeline draws, in the app and in the exported SVG, with the words its
// legend gives it. The canvas and the SVG legends are both built from this list, and both
// drawings say which kinds they drew (the canvas in a data attribute, the SVG in data-mark
// attributes), so a test can hold every drawn mark against the legend.

import type { BandColoring } from './band-colors';

export type TimelineMarkKind =
  | 'bands'
  | 'no-stack'
  | 'other'
  | 'active'
  | 'reserved'
  | 'peak-reserved'
  | 'peak-active'
  | 'oom'
  | 'moment'
  | 'annotations'
  | 'steps'
  | 'phases';

/** What a device's picture holds, deciding which legend entries it needs. */
export interface TimelineMarkFacts {
  /** How the bands are coloured (its name goes in the bands' entry). */
  coloring: Pick<BandColoring, 'name'>;
  /** The device has allocations with no recorded stack. */
  noStack: boolean;
  /** The device has trace entries (the peak markers are drawn). */
  trace: boolean;
  /**
   * The file records the device's reserved bytes (DeviceFigures.reservedRecorded): false for a
   * CPU profiler trace, whose picture has no reserved curve or peak. Absent: recorded.
   */
  reserved?: boolean;
  ooms: boolean;
  annotations: boolean;
  /** Training steps were found (the ruler along the bottom of the plot is drawn). */
  steps: boolean;
  /** A moment is selected (its cursor is drawn). */
  moment: boolean;
  /** Phases were found (forward, backward, optimizer, other: bands above the step ruler). */
  phases?: boolean;
}

export interface TimelineMark {
  kind: TimelineMarkKind;
  label: string;
  /** A longer explanation, for the legend's tooltip. */
  title: string;
}

/** Legend order: the areas bottom to top, then the lines, then the markers. */
export const TIMELINE_MARK_KINDS: readonly TimelineMarkKind[] = [
  'bands',
  'no-stack',
  'other',
  'active',
  'reserved',
  'peak-reserved',
  'peak-active',
  'oom',
  'moment',
  'annotations',
  'steps',
  'phases',
];

function shown(kind: TimelineMarkKind, facts: TimelineMarkFacts): boolean {
  switch (kind) {
    case 'no-stack':
      return facts.noStack;
    case 'reserved':
      return facts.reserved !== false;
    case 'peak-reserved':
      return facts.trace && facts.reserved !== false;
    case 'peak-active':
      return facts.trace;
    case 'oom':
      return facts.ooms;
    case 'moment':
      return facts.moment;
    case 'annotations':
      return facts.annotations;
    case 'steps':
      return facts.steps;
    case 'phases':
      return facts.phases === true;
    default:
      return true;
  }
}

export function markLabel(
  kind: TimelineMarkKind,
  coloring: Pick<BandColoring, 'name'>,
): TimelineMark {
  switch (kind) {
    case 'bands':
      return {
        kind,
        label: `allocations (colour = ${coloring.name})`,
        title:
          coloring.name === 'stack'
            ? 'Each large allocation as a band; one colour per call stack'
            : coloring.name === 'allocation'
              ? 'Each large allocation as a band in its own colour'
              : `Each large allocation as a band, coloured by its ${coloring.name}`,
      };
    case 'no-stack':
      return {
        kind,
        label: 'no stack recorded',
        title:
          'Allocations without a recorded stack (made before recording started, or recorded without stacks): hatched',
      };
    case 'other':
      return {
        kind,
        label: 'smaller allocations (merged)',
        title: 'Allocations too small to draw on their own at this zoom, drawn as one area',
      };
    case 'active':
      return {
        kind,
        label: 'active',
        title: 'Requested bytes of the allocations alive (the top of the stacked area)',
      };
    case 'reserved':
      return {
        kind,
        label: 'reserved',
        title:
          'Bytes in segments reserved from CUDA (memory_reserved); the gap above active is cached',
      };
    case 'peak-reserved':
      return { kind, label: 'reserved peak', title: 'Where reserved is highest (dashed line)' };
    case 'peak-active':
      return { kind, label: 'active peak', title: 'Where active is highest (dashed line)' };
    case 'oom':
      return { kind, label: 'out of memory', title: 'An allocation that failed (OOM)' };
    case 'moment':
      return { kind, label: 'selected moment', title: 'The moment the views below show' };
    case 'annotations':
      return {
        kind,
        label: 'annotations',
        title: 'record_function / annotation spans, named in the lane above the plot',
      };
    case 'steps':
      return {
        kind,
        label: 'steps',
        title:
          'The training steps found (annotations, else the repeating curve): alternate shades along the bottom of the plot; the Steps view lists them',
      };
    case 'phases':
      return {
        kind,
        label: 'phases',
        title:
          'Forward, backward, optimizer and other: a coloured band per phase above the step ruler, named where it has room; the Steps view lists them',
      };
  }
}

/** The legend entries a picture with these facts needs, in legend order. */
export function timelineMarks(facts: TimelineMarkFacts): TimelineMark[] {
  return TIMELINE_MARK_KINDS.filter((kind) => shown(kind, facts)).map((kind) =>
    markLabel(kind, facts.coloring),
  );
}
