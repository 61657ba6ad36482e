// One notice on one line: what it is about and the start of its message (the rest after an
// ellipsis), its actions, a toggle to read it all, and its ×. Unfolded, the message wraps and the
// details show below it.

import { useState, type JSX, type ReactNode } from 'react';
import { DismissButton } from '../ui/dismiss-button';

export interface NoticeLineProps {
  tone: 'error' | 'warning';
  /** What the notice is about, in bold. */
  title: string;
  /** The message; whole in the DOM (and its tooltip) even while cut on the line. */
  message?: string;
  /** Buttons that stay on the line. */
  actions?: ReactNode;
  /** Shown only once unfolded; kept in the DOM while folded, so what it says is there to find. */
  details?: ReactNode;
  /** The details say the message again (a list of several): unfolded, they stand in for it. */
  detailsReplaceMessage?: boolean;
  /** Controlled unfolding (else the line keeps its own). */
  unfolded?: boolean;
  onUnfold?: (unfolded: boolean) => void;
  dismissLabel: string;
  onDismiss: () => void;
  role: 'alert' | 'status';
  testId: string;
  fileName?: string;
  className?: string;
}

export function NoticeLine(props: NoticeLineProps): JSX.Element {
  const [ownUnfolded, setOwnUnfolded] = useState(false);
  const unfolded = props.unfolded ?? ownUnfolded;
  const setUnfolded = (next: boolean): void => {
    setOwnUnfolded(next);
    props.onUnfold?.(next);
  };
  return (
    <div
      className={`notice notice-${props.tone} notice-line${props.className ? ` ${props.className}` : ''}`}
      role={props.role}
      data-testid={props.testId}
      data-file-name={props.fileName}
      data-unfolded={unfolded}
    >
      <span className="notice-icon" aria-hidden="true">
        !
      </span>
      <div className="notice-text">
        <p className="notice-summary" title={unfolded ? undefined : props.message}>
          <strong>{props.title}</strong>
          {props.message !== undefined && !(unfolded && props.detailsReplaceMessage === true) && (
            <span className="notice-message">{props.message}</span>
          )}
        </p>
        {props.details !== undefined && (
          <div className="notice-details" hidden={!unfolded}>
            {props.details}
          </div>
        )}
      </div>
      {props.actions !== undefined && <div className="notice-line-actions">{props.actions}</div>}
      <button
        type="button"
        className="notice-toggle"
        data-testid="notice-toggle"
        aria-expanded={unfolded}
        aria-label={unfolded ? 'Show less' : 'Show all of it'}
        title={unfolded ? 'Show less' : 'Show all of it'}
        onClick={() => setUnfolded(!unfolded)}
      >
        <span aria-hidden="true">{unfolded ? '▴' : '▾'}</span>
      </button>
      <DismissButton label={props.dismissLabel} onClick={props.onDismiss} />
    </div>
  );
}
