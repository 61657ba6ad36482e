// A failure inside one view stays inside it. Without a boundary, an exception while React renders
// unmounts the whole page: every tab, every other view. Each tab and each view (the timeline,
// the lower view, the allocation panel) sits in a ViewBoundary: what failed is replaced by "This
// view failed: <message>", with the bug report to copy (ui/bug-report.ts, as a file that could
// not be opened has) and a button to draw it again; the rest of the page goes on.

import { Component, createContext, useMemo, type ErrorInfo, type JSX, type ReactNode } from 'react';
import { bugReportOf } from '@shared/snapshot/describe-decode-error';
import { APP_VERSION } from '../app-version';
import { composeBugReport } from './bug-report';
import { BugReportBox } from './bug-report-box';
import { useCopyReport } from './use-copy-report';
import './view-boundary.css';

/** What a report about a failed view names besides the error: the build and the open file. */
export interface ViewReportFacts {
  host: 'electron' | 'web';
  fileName: string;
  fileBytes: number | null;
}

/** Set once per tab (app.tsx); the boundaries inside it read it. */
export const ViewReportContext = createContext<ViewReportFacts>({
  host: 'web',
  fileName: '(no file open)',
  fileBytes: null,
});

interface ViewBoundaryProps {
  /** What the view is, for the report and the test id: "timeline", "allocation panel", "tab". */
  name: string;
  children: ReactNode;
}

interface ViewBoundaryState {
  error: { value: unknown; componentStack: string } | null;
}

export class ViewBoundary extends Component<ViewBoundaryProps, ViewBoundaryState> {
  static override contextType = ViewReportContext;
  declare context: ViewReportFacts;
  override state: ViewBoundaryState = { error: null };

  static getDerivedStateFromError(value: unknown): ViewBoundaryState {
    return { error: { value, componentStack: '' } };
  }

  override componentDidCatch(value: unknown, info: ErrorInfo): void {
    this.setState({ error: { value, componentStack: info.componentStack ?? '' } });
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === null) return this.props.children;
    return (
      <ViewFailure
        name={this.props.name}
        error={error.value}
        componentStack={error.componentStack}
        facts={this.context}
        onRetry={() => this.setState({ error: null })}
      />
    );
  }
}

function ViewFailure(props: {
  name: string;
  error: unknown;
  componentStack: string;
  facts: ViewReportFacts;
  onRetry: () => void;
}): JSX.Element {
  const { name, error, componentStack, facts } = props;
  const message = error instanceof Error ? error.message || error.name : String(error);
  const report = useMemo(
    () =>
      composeBugReport({
        appVersion: APP_VERSION,
        host: facts.host,
        userAgent: typeof navigator === 'undefined' ? null : navigator.userAgent,
        fileName: facts.fileName,
        fileBytes: facts.fileBytes,
        message: `the ${name} failed: ${message}`,
        report: `${bugReportOf(error)}\n\nIn the view:${componentStack}`,
      }),
    [name, message, error, componentStack, facts],
  );
  const copyReport = useCopyReport(report);
  const { copyState, copy } = copyReport;
  return (
    <div className="view-failure" role="alert" data-testid="view-failure" data-view-name={name}>
      <p className="view-failure-message">
        <strong>This view failed:</strong> <span data-testid="view-failure-message">{message}</span>
      </p>
      <p className="view-failure-hint">
        This is a bug in allocscope; the other views and tabs go on.{' '}
        {copyState === 'copied'
          ? 'Copied: please paste it into a bug report for allocscope.'
          : copyState === 'refused'
            ? 'The page may not write the clipboard: copy the selected report below.'
            : 'The report names the file and its size, never its contents.'}
      </p>
      <div className="view-failure-actions">
        <button
          type="button"
          className="button button-compact"
          data-testid="copy-report"
          onClick={() => void copy()}
        >
          Copy report
        </button>
        <button type="button" className="button button-compact" onClick={props.onRetry}>
          Try again
        </button>
      </div>
      <BugReportBox report={report} copy={copyReport} label={`Bug report about the ${name}`} />
    </div>
  );
}
