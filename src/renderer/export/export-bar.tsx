// Export buttons of a snapshot page: what the lower view shown exports (its registry entry's
// exports: PNG at a chosen pixel scale and SVG of its picture, JSON, CSV), from what is on screen
// (the tab's store). File › Export in Electron runs the same exports for the page of the current
// tab.

import { useEffect, useEffectEvent, useMemo, useRef, useState, type JSX } from 'react';
import type { AllocatorStateIndex } from '@shared/state/allocator-state';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { colorByFor } from '@shared/holders/band-coloring';
import { createExportSaver, type ExportFormat } from '../api/export-saver';
import { useTabStore } from '../state/tab-store-context';
import { segmentsBoxOnPage } from '../segments/segments-box';
import type { ExportContext } from './export-files';
import type { LowerViewEntry } from './lower-view-entry';
import { exportFormatsOf, exportTitle, makeViewExportFile } from './view-exports';
import { DEFAULT_CHART_SIZE, defaultPngScale, PNG_SCALES, type PngScale } from './svg-to-png';
import './export.css';

export interface ExportBarProps {
  snapshot: AnalyzedSnapshot;
  device: AnalyzedDevice;
  stateIndex: AllocatorStateIndex;
  /** The moment shown. */
  moment: number | null;
  /** The lower view shown: what its entry exports (registry/lower-views.ts). */
  entry: LowerViewEntry;
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
  const picture = props.entry.exports.picture;
  const chartSize = (): { width: number; height: number } => {
    const chart = picture === null ? null : page().querySelector<HTMLElement>(picture.element);
    const box = chart?.getBoundingClientRect();
    return box && box.width >= 1 && box.height >= 1
      ? { width: Math.round(box.width), height: Math.round(box.height) }
      : { ...DEFAULT_CHART_SIZE };
  };

  // What is on screen when the export runs: the tab's store (the window, the colouring, the
  // search...), the chart's size, and the page's segments box (the segments picture is laid out
  // in it, so the export is the picture on screen; null when another view is shown).
  const context = (): ExportContext => {
    const tab = store.getState();
    const shownWindow = tab.timelineWindow;
    const dark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
    return {
      snapshot: props.snapshot,
      deviceIndex: props.snapshot.devices.indexOf(props.device),
      stateIndex: props.stateIndex,
      moment: props.moment,
      activeView: 'timeline',
      timelineWindow:
        shownWindow === null
          ? null
          : { startEvent: shownWindow.startEvent, endEvent: shownWindow.endEvent },
      theme: dark ? 'dark' : 'light',
      xMode: props.xMode,
      colorBy: colorByFor(props.device, tab.colorBy),
      tab,
      chartSize: chartSize(),
      oomEvent: shownOomEvent(page()),
      viewPicture: tab.viewPicture,
      segmentsBox: props.entry.id === 'segments' ? segmentsBoxOnPage(page()) : null,
    };
  };

  const working = useRef(false);
  const runExport = async (format: ExportFormat): Promise<void> => {
    if (working.current) return;
    working.current = true;
    setStatus({ state: 'working', format });
    try {
      const file = await makeViewExportFile(props.entry.exports, format, context(), scale);
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

  const formats = exportFormatsOf(props.entry.exports);
  const button = (format: ExportFormat): JSX.Element => {
    const title = exportTitle(props.entry.exports, format, context(), scale);
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
      {picture !== null && (
        <span
          className="export-buttons export-chart"
          data-testid="export-what"
          data-view={picture.name}
          title={`PNG and SVG export ${picture.words}`}
        >
          <span className="export-what">{picture.words.replace(/^the /, '')}</span>
          {formats.filter((format) => format === 'png' || format === 'svg').map(button)}
        </span>
      )}
      <span className="export-buttons">
        {formats.filter((format) => format === 'json' || format === 'csv').map(button)}
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

/** The OOM the OOM tab shows (its data-event), or null when that tab is not shown. */
function shownOomEvent(page: ParentNode): number | null {
  const panel = page.querySelector<HTMLElement>('[data-testid="oom-explainer"]');
  const event = Number(panel?.dataset['event']);
  return panel === null || !Number.isInteger(event) ? null : event;
}
