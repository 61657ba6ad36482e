// A lower view that draws the allocator's segments (its entry says needsSegments), on a file that
// recorded none (a PyTorch profiler trace): the page says so in its place, in the words the CLI
// uses, and its export bar offers no picture of it (an empty one would say nothing true).

import type { JSX } from 'react';
import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { recordsSegments } from '@shared/analyzed/records-segments';
import { capitalized, NO_SEGMENTS_IN_TIMELINE, NO_SEGMENTS_IN_TRACE } from '@shared/format/words';
import type { LowerViewEntry } from '../export/lower-view-entry';

/** True when the view cannot draw this file: it needs segments, and the file has none. */
export function segmentsMissingFor(entry: LowerViewEntry, snapshot: AnalyzedSnapshot): boolean {
  return entry.needsSegments === true && !recordsSegments(snapshot);
}

/** The entry as the export bar shows it for this file: without a picture where it has none. */
export function entryFor(entry: LowerViewEntry, snapshot: AnalyzedSnapshot): LowerViewEntry {
  return segmentsMissingFor(entry, snapshot)
    ? { ...entry, exports: { ...entry.exports, picture: null } }
    : entry;
}

export function SegmentsNotRecorded(props: {
  snapshot?: Pick<AnalyzedSnapshot, 'source'>;
}): JSX.Element {
  const words =
    props.snapshot?.source === 'memory-timeline' ? NO_SEGMENTS_IN_TIMELINE : NO_SEGMENTS_IN_TRACE;
  return (
    <p className="lower-pending" data-testid="segments-not-recorded">
      {capitalized(words)}.
    </p>
  );
}
