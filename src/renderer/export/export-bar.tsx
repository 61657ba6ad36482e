// Export buttons of a snapshot page: PNG (at a chosen pixel scale) and SVG of the chart shown,
// the findings as JSON, the largest-allocations table as CSV. File › Export in Electron runs the
// same exports for the page of the current tab.

import { useEffect, useEffectEvent, useMemo, useRef, useState, type JSX } from 'react';
import type { AllocatorStateIndex } from '@shared/state/allocator-state';
import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { createExportSaver, type ExportFormat } from '../api/export-saver';
import { makeExportFile, type ExportContext } from './export-files';
import { DEFAULT_CHART_SIZE, defaultPngScale, PNG_SCALES, type PngScale } from './svg-to-png';
import './export.css';

export interface ExportBarProps {
  view: AnalyzedSnapshot;
  /** Index into view.devices. */
  deviceIndex: number;
  stateIndex: AllocatorStateIndex;
  moment: number | null;
  activeView: 'timeline' | 'segments';
  timelineWindow: { startEvent: number; endEvent: number } | null;
  /** Only the current tab's bar answers File › Export. */
  isActiveTab: boolean;
  /** The timeline's x axis as shown (time or event index); the renderer's default when absent. */
  xMode?: 'time' | 'event';
}

type ExportStatus =
  | { state: 'working'; format: ExportFormat }
  | { state: 'saved'; format: ExportFormat; fileName: string; detail: string }
  | { state: 'error'; format: ExportFormat; message: string };

/** How long "Saved …" stays. Errors stay until dismissed or the next export. */
const SAVED_NOTICE_MS = 6000;

const BUTTONS: readonly { format: ExportFormat; label: string; title: string }[] = [
  { format: 'png', label: 'PNG', title: 'The chart as a PNG image' },
  { format: 'svg', label: 'SVG', title: 'The chart as an SVG image' },
  { format: 'json', label: 'JSON', title: 'The findings (allocscope.report/1) as JSON' },
  { format: 'csv', label: 'CSV', title: 'The largest-allocations table as CSV' },
];

/** The chart element of the view shown on this page (the one the export draws). */
const CHART_SELECTORS: Record<ExportBarProps['activeView'], string> = {
  timeline: '[data-testid="timeline"]',
  segments: '[data-testid="segments-view"]',
};

export function ExportBar(props: ExportBarProps): JSX.Element {
  const { isActiveTab } = props;
  const saver = useMemo(() => createExportSaver(), []);
  const rootRef = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState<PngScale>(() =>
    defaultPngScale(typeof window === 'undefined' ? 1 : window.devicePixelRatio),
  );
  const [status, setStatus] = useState<ExportStatus | null>(null);
  const busy = status?.state === 'working';

  const chartSize = (): { width: number; height: number } => {
    const page = rootRef.current?.closest('[data-testid="snapshot-page"]') ?? document;
    const chart = page.querySelector<HTMLElement>(CHART_SELECTORS[props.activeView]);
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
        timelineWindow: props.timelineWindow,
        theme: dark ? 'dark' : 'light',
        xMode: props.xMode,
        chartSize: chartSize(),
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

  return (
    <div
      ref={rootRef}
      className="export-bar"
      role="toolbar"
      aria-label="Export"
      data-testid="export-bar"
    >
      <span className="toolbar-label">Export</span>
      <span className="export-buttons">
        {BUTTONS.map(({ format, label, title }) => (
          <button
            key={format}
            type="button"
            className="button button-compact"
            data-testid={`export-${format}`}
            title={format === 'png' ? `${title} at ${scale}× (${props.activeView})` : title}
            disabled={busy}
            aria-busy={status?.state === 'working' && status.format === format}
            onClick={() => void runExport(format)}
          >
            {label}
          </button>
        ))}
      </span>
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
