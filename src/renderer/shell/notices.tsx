import type { OpenFailure } from '../state/app-state';
import { BugNotice } from './bug-notice';
import { NoticeLine } from './notice-line';
import { NoticeStrip } from './notice-strip';

export interface FailureNoticesProps {
  readonly failures: readonly OpenFailure[];
  /** Which build runs: bug reports name it. */
  readonly host: 'electron' | 'web';
  readonly onDismiss: (failureId: string) => void;
}

/**
 * Lines the failure notices take: five notices, and beyond five, the "N more notices" line that
 * unfolds the rest (so seven failures show five and "2 more notices").
 */
export const FAILURE_LINES = 6;

/**
 * Files that could not be opened; the open snapshots are not touched by a failure. The file's
 * fault (not a snapshot, damaged, unreadable) says what is wrong; a bug in allocscope says so and
 * offers its report. They float over the bottom of the window, one line each (newest first), so
 * they push no snapshot's page down; they belong to no tab.
 */
export function FailureNotices({ failures, host, onDismiss }: FailureNoticesProps) {
  const newestFirst = [...failures].reverse();
  return (
    <NoticeStrip
      className="notices failure-notices"
      label="Files that could not be opened"
      testId="failure-notices"
      layout="stack"
      room={FAILURE_LINES}
      items={newestFirst.map((failure) => ({
        key: failure.id,
        node:
          failure.bug !== null ? (
            <BugNotice
              failure={failure}
              bug={failure.bug}
              host={host}
              onDismiss={() => onDismiss(failure.id)}
            />
          ) : (
            <NoticeLine
              tone="error"
              role="alert"
              testId="error-notice"
              fileName={failure.fileName}
              title={`Could not open ${failure.fileName}`}
              message={failure.message}
              dismissLabel={`Dismiss the error about ${failure.fileName}`}
              onDismiss={() => onDismiss(failure.id)}
            />
          ),
      }))}
    />
  );
}

export interface WarningNoticeProps {
  readonly warnings: readonly string[];
  readonly onDismiss: () => void;
}

/**
 * What the decoder noticed about a file that still opened (inconsistent or trimmed data): the
 * first warning on one line, all of them once unfolded.
 */
export function WarningNotice({ warnings, onDismiss }: WarningNoticeProps) {
  const several = warnings.length > 1;
  return (
    <NoticeLine
      tone="warning"
      role="status"
      testId="warning-notice"
      title={several ? `${warnings.length} warnings` : 'Warning'}
      message={warnings.join(' · ')}
      details={
        several ? (
          <ul className="notice-list">
            {warnings.map((warning, index) => (
              <li key={index}>{warning}</li>
            ))}
          </ul>
        ) : undefined
      }
      // One warning unfolds to its own text; several to their list.
      detailsReplaceMessage={several}
      dismissLabel="Dismiss the warnings"
      onDismiss={onDismiss}
    />
  );
}
