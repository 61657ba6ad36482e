// The folded text box holding a bug report, as "Copy report" opens it (use-copy-report.ts): one
// markup for the notice of a file allocscope failed to open and for a view that failed.

import type { JSX } from 'react';
import type { CopyReport } from './use-copy-report';

export function BugReportBox(props: {
  report: string;
  copy: CopyReport;
  /** What the report is about, for the text box's label. */
  label: string;
}): JSX.Element {
  const { reportShown, setReportShown, reportBox } = props.copy;
  return (
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
        value={props.report}
        aria-label={props.label}
      />
    </details>
  );
}
