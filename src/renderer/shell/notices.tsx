import type { OpenFailure } from './app-state';
import { BugNotice } from './bug-notice';
import { DismissButton } from '../ui/dismiss-button';

export interface FailureNoticesProps {
  readonly failures: readonly OpenFailure[];
  /** Which build runs: bug reports name it. */
  readonly host: 'electron' | 'web';
  readonly onDismiss: (failureId: string) => void;
}

/**
 * Files that could not be opened; the open snapshots are not touched by a failure. The file's
 * fault (not a snapshot, damaged, unreadable) says what is wrong; a bug in allocscope says so and
 * offers its report.
 */
export function FailureNotices({ failures, host, onDismiss }: FailureNoticesProps) {
  if (failures.length === 0) return null;
  return (
    <div className="notices">
      {failures.map((failure) =>
        failure.bug !== null ? (
          <BugNotice
            key={failure.id}
            failure={failure}
            bug={failure.bug}
            host={host}
            onDismiss={() => onDismiss(failure.id)}
          />
        ) : (
          <div
            key={failure.id}
            className="notice notice-error"
            role="alert"
            data-testid="error-notice"
            data-file-name={failure.fileName}
          >
            <span className="notice-icon" aria-hidden="true">
              !
            </span>
            <p className="notice-text">
              <strong>Could not open {failure.fileName}</strong>
              <span className="notice-message">{failure.message}</span>
            </p>
            <DismissButton
              label={`Dismiss the error about ${failure.fileName}`}
              onClick={() => onDismiss(failure.id)}
            />
          </div>
        ),
      )}
    </div>
  );
}

export interface WarningNoticeProps {
  readonly warnings: readonly string[];
  readonly onDismiss: () => void;
}

/** What the decoder noticed about a file that still opened (inconsistent or trimmed data). */
export function WarningNotice({ warnings, onDismiss }: WarningNoticeProps) {
  return (
    <div className="notice notice-warning" role="status" data-testid="warning-notice">
      <span className="notice-icon" aria-hidden="true">
        !
      </span>
      <div className="notice-text">
        <strong>{warnings.length === 1 ? 'Warning' : `${warnings.length} warnings`}</strong>
        {warnings.length === 1 ? (
          <span className="notice-message">{warnings[0]}</span>
        ) : (
          <ul className="notice-list">
            {warnings.map((warning, index) => (
              <li key={index}>{warning}</li>
            ))}
          </ul>
        )}
      </div>
      <DismissButton label="Dismiss the warnings" onClick={onDismiss} />
    </div>
  );
}
