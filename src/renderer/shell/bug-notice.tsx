import { useEffect, useMemo, useRef, useState } from 'react';
import { copyToClipboard } from '../api/clipboard';
import { APP_VERSION } from '../app-version';
import type { OpenFailure, OpenFailureBug } from './app-state';
import { composeBugReport } from './bug-report';
import { DismissButton } from '../ui/dismiss-button';

export interface BugNoticeProps {
  readonly failure: OpenFailure;
  readonly bug: OpenFailureBug;
  readonly host: 'electron' | 'web';
  readonly onDismiss: () => void;
}

type CopyState = 'idle' | 'copied' | 'refused';

/**
 * A file that could not be opened because allocscope broke, not because of the file: says so,
 * and hands over the report to file. The report is also shown (folded) in a read-only text box,
 * which opens with the text selected when the page may not write the clipboard.
 */
export function BugNotice({ failure, bug, host, onDismiss }: BugNoticeProps) {
  const report = useMemo(
    () =>
      composeBugReport({
        appVersion: APP_VERSION,
        host,
        userAgent: typeof navigator === 'undefined' ? null : navigator.userAgent,
        fileName: failure.fileName,
        fileBytes: bug.fileBytes,
        message: failure.message,
        report: bug.report,
      }),
    [failure.fileName, failure.message, bug, host],
  );
  const [copyState, setCopyState] = useState<CopyState>('idle');
  const [reportShown, setReportShown] = useState(false);
  /** Bumped to select the report's text once its box is open. */
  const [selectRequests, setSelectRequests] = useState(0);
  const reportBox = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (selectRequests === 0) return;
    reportBox.current?.focus();
    reportBox.current?.select();
  }, [selectRequests]);

  async function copyReport() {
    if (await copyToClipboard(report)) {
      setCopyState('copied');
      return;
    }
    setCopyState('refused');
    setReportShown(true);
    setSelectRequests((count) => count + 1);
  }

  return (
    <div
      className="notice notice-error notice-bug"
      role="alert"
      data-testid="bug-notice"
      data-file-name={failure.fileName}
    >
      <span className="notice-icon" aria-hidden="true">
        !
      </span>
      <div className="notice-text">
        <strong>This is a bug in allocscope</strong>
        <span className="notice-message">
          Could not open {failure.fileName}: {failure.message}
        </span>
        <div className="notice-actions">
          <button
            type="button"
            className="button button-compact"
            data-testid="copy-report"
            onClick={() => void copyReport()}
          >
            Copy report
          </button>
          <span className="notice-hint" role="status" data-testid="copy-report-status">
            {copyState === 'copied'
              ? 'Copied. Please paste it into a bug report for allocscope.'
              : copyState === 'refused'
                ? 'The page may not write the clipboard: copy the selected report below.'
                : 'The report names the file and its size, never its contents.'}
          </span>
        </div>
        <details
          className="bug-report"
          open={reportShown}
          onToggle={(event) => setReportShown(event.currentTarget.open)}
        >
          <summary>Report</summary>
          <textarea
            ref={reportBox}
            className="bug-report-text"
            data-testid="bug-report"
            readOnly
            spellCheck={false}
            rows={8}
            value={report}
            aria-label={`Bug report about ${failure.fileName}`}
          />
        </details>
      </div>
      <DismissButton
        label={`Dismiss the bug report about ${failure.fileName}`}
        onClick={onDismiss}
      />
    </div>
  );
}
