// The newest snapshots' fields of one allocation in the stack panel (detail-rows.ts words them):
// a list of named values, and `forward_frames` as a stack of its own.

import type { JSX } from 'react';
import type { AllocationDetails } from '@shared/analyzed/allocation-details';
import { detailRows, forwardFrameLines } from './detail-rows';

export function DetailsList(props: {
  details: AllocationDetails;
  stackLabelOf: (stackId: number) => string;
}): JSX.Element | null {
  const rows = detailRows(props.details, props.stackLabelOf);
  if (rows.length === 0) return null;
  return (
    <dl className="ap-detail-rows" data-testid="allocation-detail-rows">
      {rows.map((row) => (
        <div key={row.key} className="ap-detail-row" data-testid={`detail-${row.key}`}>
          <dt>{row.label}</dt>
          <dd>
            {row.format === 'text' ? (
              <span className="ap-selectable">{row.text}</span>
            ) : (
              <pre className="ap-pre ap-selectable">{row.text}</pre>
            )}
            {row.note !== undefined && <span className="ap-detail-note">{row.note}</span>}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Where autograd created the tensor in the forward pass (for allocations made in backward). */
export function ForwardFrames(props: { details: AllocationDetails }): JSX.Element {
  const lines = forwardFrameLines(props.details);
  return (
    <section className="ap-forward" data-testid="forward-frames" aria-label="Created in forward at">
      <h3>
        Created in forward at{' '}
        <span className="tl-exact">
          {lines.length === 1 ? '1 frame' : `${lines.length} frames`}
        </span>
      </h3>
      <ol className="ap-forward-lines">
        {lines.map((line, index) => (
          <li
            key={index}
            className={line.isUser ? 'ap-forward-user' : 'ap-forward-framework'}
            data-testid="forward-frame"
          >
            <pre className="ap-pre ap-selectable">{line.text}</pre>
          </li>
        ))}
      </ol>
    </section>
  );
}
