// How a list of notices takes little room: each on one line, at most `room` lines; beyond that the
// first notice keeps its line and the rest fold into one "N more notices" line that unfolds on
// demand. Pure, unit-tested.

export interface FoldedNotices {
  /** Notices shown on their own line (the first ones of the list). */
  readonly shown: number;
  /** Notices behind the "N more" line. */
  readonly folded: number;
}

export function foldNotices(count: number, room: number, unfolded: boolean): FoldedNotices {
  if (unfolded || count <= room) return { shown: count, folded: 0 };
  const shown = Math.max(0, Math.min(count, room - 1));
  return { shown, folded: count - shown };
}

/** "1 more notice", "3 more notices"; "2 notices" when none is shown beside the line. */
export function foldedLabel(folded: FoldedNotices): string {
  const noun = folded.folded === 1 ? 'notice' : 'notices';
  return folded.shown === 0 ? `${folded.folded} ${noun}` : `${folded.folded} more ${noun}`;
}
