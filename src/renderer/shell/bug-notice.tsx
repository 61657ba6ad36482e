import { useMemo, useState } from 'react';
import { APP_VERSION } from '../app-version';
import type { OpenFailure, OpenFailureBug } from '../state/app-state';
import { composeBugReport } from '../ui/bug-report';
import { NoticeLine } from './notice-line';
import { BugReportBox } from '../ui/bug-report-box';
import { useCopyReport } from '../ui/use-copy-report';

export interface BugNoticeProps {
  readonly failure: OpenFailure;
  readonly bug: OpenFailureBug;
  readonly host: 'electron' | 'web';
  readonly onDismiss: () => void;
}

/**
 * A file that could not be opened because allocscope broke, not because of the file: says so,
 * and hands over the report to file, on one line with its Copy button. Copying unfolds it (what
 * happened, and the report in a read-only text box, which opens with the text selected when the
 * page may not write the clipboard).
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
  const reportCopy = useCopyReport(report);
  const { copyState, copy } = reportCopy;
  const [unfolded, setUnfolded] = useState(false);

  async function copyReport() {
    setUnfolded(true);
    await copy();
  }

  return (
    <NoticeLine
      tone="error"
      role="alert"
      testId="bug-notice"
      className="notice-bug"
      fileName={failure.fileName}
      title="This is a bug in allocscope"
      message={`Could not open ${failure.fileName}: ${failure.message}`}
      unfolded={unfolded}
      onUnfold={setUnfolded}
      actions={
        <button
          type="button"
          className="button button-compact"
          data-testid="copy-report"
          onClick={() => void copyReport()}
        >
          Copy report
        </button>
      }
      details={
        <>
          <p className="notice-hint" role="status" data-testid="copy-report-status">
            {copyState === 'copied'
              ? 'Copied. Please paste it into a bug report for allocscope.'
              : copyState === 'refused'
                ? 'The page may not write the clipboard: copy the selected report below.'
                : 'The report names the file and its size, never its contents.'}
          </p>
          <BugReportBox
            report={report}
            copy={reportCopy}
            label={`Bug report about ${failure.fileName}`}
          />
        </>
      }
      dismissLabel={`Dismiss the bug report about ${failure.fileName}`}
      onDismiss={onDismiss}
    />
  );
}
