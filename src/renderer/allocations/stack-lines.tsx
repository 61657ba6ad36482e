// An allocation's stack as a short list: the stack's label first (analysis/user-frame.ts), then
// up to `limit` supporting frames, and how many more there are.

import type { JSX } from 'react';
import { stackLabelOfStack } from '@shared/analysis/user-frame';
import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { shownText } from '@shared/format/shown-text';
import { NO_STACK_TEXT } from '@shared/format/words';
import {
  shortFrameText,
  stackFrames,
  supportingFrames,
  TOOLTIP_FRAME_CHARS,
} from './allocation-facts';

export function StackLines(props: {
  snapshot: AnalyzedSnapshot;
  stackId: number;
  limit: number;
  testId: string;
}): JSX.Element {
  const { snapshot, stackId, limit, testId } = props;
  const frames = stackFrames(snapshot, stackId);
  if (frames.length === 0) return <div className="tl-tooltip-muted">{NO_STACK_TEXT}</div>;
  const label = stackLabelOfStack(snapshot, stackId)!;
  const userIndex = label.index;
  const supporting = supportingFrames(frames, userIndex, limit);
  const unlisted = frames.length - 1 - supporting.length;
  return (
    <ol className="tl-tooltip-stack">
      <li className="tl-user-frame" data-testid={testId}>
        {label.text}
      </li>
      {supporting.map((frame, index) => (
        <li key={index} data-testid={testId}>
          {shownText(shortFrameText(frame), TOOLTIP_FRAME_CHARS)}
        </li>
      ))}
      {unlisted > 0 && (
        <li className="tl-tooltip-muted">
          … {unlisted} more {unlisted === 1 ? 'frame' : 'frames'}
        </li>
      )}
    </ol>
  );
}
