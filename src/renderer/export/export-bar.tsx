// Export buttons of a snapshot page: PNG (at a chosen pixel scale) and SVG of the chart of the tab
// shown (the timeline, the segments, the fragmentation chart or the OOM explainer), the findings
// of every device as JSON, every allocation of the device as CSV. File › Export in Electron runs
// the same exports for the page of the current tab.

import { useEffect, useEffectEvent, useMemo, useRef, useState, type JSX } from 'react';
import type { AllocatorStateIndex } from '@shared/state/allocator-state';
import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { createExportSaver, type ExportFormat } from '../api/export-saver';
import { makeExportFile, type ExportContext, type ViewPicture } from './export-files';
import type { ExportedView } from './file-names';
import { DEFAULT_CHART_SIZE, defaultPngScale, PNG_SCALES, type PngScale } from './svg-to-png';
import './export.css';
import { useTabStore } from '../state/tab-store-context';
import { deviceLabel } from '@shared/format/words';

export interface ExportBarProps {
  view: AnalyzedSnapshot;
  /** Index into view.devices. */
  deviceIndex: number;
  stateIndex: AllocatorStateIndex;
  moment: number | null;
  /** The chart the PNG/SVG buttons export (exportedViewOf the lower tab shown). */
  activeView: ExportedView;
  /** The timeline's visible window now (read when exporting: zooming never re-renders the bar). */
  timelineWindow: () => { startEvent: number; endEvent: number } | null;
  /** Only the current tab's bar answers File › Export. */
  isActiveTab: boolean;
  /** The timeline's x axis as shown (time or event index); the renderer's default when absent. */
  xMode?: 'time' | 'event';
  /** The Steps or Compare view's picture as it is shown (read when exporting). */
  viewPicture?: () => ViewPicture | null;
}

type ExportStatus =
  | { state: 'working'; format: ExportFormat }
  | { state: 'saved'; format: ExportFormat; fileName: string; detail: string }
  | { state: 'error'; format: ExportFormat; message: string };

/** How long "Saved …" stays. Errors stay until dismissed or the next export. */
const SAVED_NOTICE_MS = 6000;

/** What each view's picture is called on its buttons. */
const VIEW_WORDS: Record<ExportedView, string> = {
  timeline: 'the timeline',
  segments: 'the segments',
  fragmentation: 'fragmentation',
  oom: 'the OOM explainer',
  steps: 'the steps',
  compare: 'the comparison',
};

/**
 * The chart a lower tab exports: its own, except the tables' (Allocations, Who holds it): the
 * timeline above them (`allocscope render --view flame` draws Who holds it).
 */
export function exportedViewOf(lowerView: 'largest' | 'holders' | ExportedView): ExportedView {
  return lowerView === 'largest' || lowerView === 'holders' ? 'timeline' : lowerView;
}

/** What each button says it exports (its tooltip and accessible name). */
export function exportButtonTitle(
  format: ExportFormat,
  view: ExportedView,
  scale: number,
  device: number,
): string {
  switch (format) {
    case 'png':
      return `Export ${VIEW_WORDS[view]} as PNG (${scale}×)`;
    case 'svg':
      return `Export ${VIEW_WORDS[view]} as SVG`;
    case 'json':
      return 'Export the findings of every device as JSON (allocscope.report/1)';
    case 'csv':
      return `Export every allocation of ${deviceLabel(device)} as CSV (which are alive at the moment, exact bytes, times)`;
  }
}

const CHART_FORMATS: readonly ExportFormat[] = ['png', 'svg'];
const DATA_FORMATS: readonly ExportFormat[] = ['json', 'csv'];

/** The chart element of the view shown on this page (its size is the exported picture's). */
const CHART_SELECTORS: Record<ExportedView, string> = {
  timeline: '[data-testid="timeline"]',
  segments: '[data-testid="segments-view"]',
  fragmentation: '[data-testid="fragmentation-panel"] .frag-stage',
  oom: '[data-testid="oom-explainer"]',
  steps: '[data-testid="steps-view"]',
  compare: '[data-testid="compare-view"]',
};

export function ExportBar(props: ExportBarProps): JSX.Element {
  const { isActiveTab } = props;
  const saver = useMemo(() => createExportSaver(), []);
  const store = useTabStore();
  const rootRef = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState<PngScale>(() =>
    defaultPngScale(typeof window === 'undefined' ? 1 : window.devicePixelRatio),
  );
  const [status, setStatus] = useState<ExportStatus | null>(null);
  const busy = status?.state === 'working';

  const page = (): ParentNode =>
    rootRef.current?.closest('[data-testid="snapshot-page"]') ?? document;
  const chartSize = (): { width: number; height: number } => {
    const chart = page().querySelector<HTMLElement>(CHART_SELECTORS[props.activeView]);
    const box = chart?.getBoundingClientRect();
    return box && box.width >= 1 && box.height >= 1
      ? { width: Math.round(box.width), height: Math.round(box.height) }
      : { ...DEFAULT_CHART_SIZE };
  };

  const working = useRef(false);
  const runExport = async (format: ExportFormat): Promise<void> => {
    if (working.current) return;
    working.current = true;
    setStatus({ state: 'working', format });
    try {
      const dark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
      const context: ExportContext = {
        view: props.view,
        deviceIndex: props.deviceIndex,
        stateIndex: props.stateIndex,
        moment: props.moment,
        activeView: props.activeView,
        timelineWindow: props.timelineWindow(),
        theme: dark ? 'dark' : 'light',
        xMode: props.xMode,
        colorBy: store.getState().colorBy,
        chartSize: chartSize(),
        oomEvent: shownOomEvent(page()),
        viewPicture: props.viewPicture?.() ?? null,
      };
      const file = await makeExportFile(format, context, scale);
      const outcome = await saver.save(file);
      if (outcome.status === 'cancelled') {
        setStatus(null);
        return;
      }
      const pixels = file.pixels;
      setStatus({
        state: 'saved',
        format,
        fileName: outcome.fileName,
        detail: pixels ? `${pixels.width} × ${pixels.height} px, ${pixels.scale}×` : '',
      });
    } catch (error) {
      console.warn(`[allocscope] the ${format} export failed:`, error);
      setStatus({
        state: 'error',
        format,
        message: error instanceof Error ? error.message : String(error),
      });
    } finally {
      working.current = false;
    }
  };

  // File › Export (Electron): only the page of the current tab answers.
  const onMenuExport = useEffectEvent((format: ExportFormat) => void runExport(format));
  useEffect(() => {
    if (!isActiveTab) return;
    return saver.onMenuExport(onMenuExport);
  }, [saver, isActiveTab]);

  useEffect(() => {
    if (status?.state !== 'saved') return;
    const timer = setTimeout(() => setStatus(null), SAVED_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [status]);

  const device = props.view.devices[props.deviceIndex]?.device ?? 0;
  const button = (format: ExportFormat): JSX.Element => {
    const title = exportButtonTitle(format, props.activeView, scale, device);
    return (
      <button
        key={format}
        type="button"
        className="button button-compact"
        data-testid={`export-${format}`}
        title={title}
        aria-label={title}
        disabled={busy}
        aria-busy={status?.state === 'working' && status.format === format}
        onClick={() => void runExport(format)}
      >
        {format.toUpperCase()}
      </button>
    );
  };

  return (
    <div
      ref={rootRef}
      className="export-bar"
      role="toolbar"
      aria-label="Export"
      data-testid="export-bar"
    >
      <span className="toolbar-label">Export</span>
      <span
        className="export-buttons export-chart"
        data-testid="export-what"
        data-view={props.activeView}
        title={`PNG and SVG export ${VIEW_WORDS[props.activeView]}`}
      >
        <span className="export-what">{VIEW_WORDS[props.activeView].replace(/^the /, '')}</span>
        {CHART_FORMATS.map(button)}
      </span>
      <span className="export-buttons">{DATA_FORMATS.map(button)}</span>
      <label className="export-scale" title="Pixels per CSS pixel of the PNG">
        <select
          data-testid="export-scale"
          aria-label="PNG scale"
          value={String(scale)}
          disabled={busy}
          onChange={(event) => setScale(Number(event.target.value) as PngScale)}
        >
          {PNG_SCALES.map((value) => (
            <option key={value} value={String(value)}>
              {value}×
            </option>
          ))}
        </select>
      </label>
      <ExportNotice status={status} onDismiss={() => setStatus(null)} />
    </div>
  );
}

function ExportNotice(props: { status: ExportStatus | null; onDismiss: () => void }): JSX.Element {
  const { status, onDismiss } = props;
  // Always in the document, so screen readers announce what changes in it.
  return (
    <span
      className={`export-notice${status === null ? '' : ` export-notice-${status.state}`}`}
      role="status"
      aria-live="polite"
      data-testid="export-notice"
      data-state={status?.state ?? 'idle'}
      data-format={status?.format}
      data-file-name={status?.state === 'saved' ? status.fileName : undefined}
    >
      {status?.state === 'working' && `Exporting ${status.format.toUpperCase()}…`}
      {status?.state === 'saved' && (
        <>
          Saved <strong>{status.fileName}</strong>
          {status.detail !== '' && <span className="export-detail"> ({status.detail})</span>}
        </>
      )}
      {status?.state === 'error' && (
        <>
          <span>
            Could not export {status.format.toUpperCase()}: {status.message}
          </span>
          <button
            type="button"
            className="export-dismiss"
            aria-label="Dismiss the export error"
            onClick={onDismiss}
          >
            ×
          </button>
        </>
      )}
    </span>
  );
}

/** The OOM the OOM tab shows (its data-event), or null when that tab is not shown. */
function shownOomEvent(page: ParentNode): number | null {
  const panel = page.querySelector<HTMLElement>('[data-testid="oom-explainer"]');
  const event = Number(panel?.dataset['event']);
  return panel === null || !Number.isInteger(event) ? null : event;
}
