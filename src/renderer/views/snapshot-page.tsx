import { useLayoutEffect, useMemo, useState, type Dispatch, type JSX } from 'react';
import { formatBytes, formatExactBytes } from '@shared/units';
import type { DeviceView } from '@shared/view/snapshot-view';
import type { TimelineDomainInfo } from '../charts/timeline-chart';
import {
  effectiveXMode,
  selectedDevice,
  type AppAction,
  type LowerView,
  type SnapshotTab,
  type XMode,
} from '../state/app-state';
import { AllocationPanel } from './allocation-panel';
import { ExportBar } from './export-bar';
import { FragmentationPanel } from './fragmentation-panel';
import { LargestAllocationsTable } from './largest-allocations-table';
import {
  clampMoment,
  defaultMoment,
  describeMoment,
  firstOomEvent,
  isEditingTarget,
  momentStepOfKey,
  stepMoment,
} from './moment';
import { WarningNotice } from './notices';
import { OomExplainerPanel } from './oom-explainer-panel';
import { SegmentsView } from './segments-view';
import './snapshot-page.css';
import { SummaryStrip } from './summary-strip';
import { TimelineView } from './timeline-view';
import { smallHoleThresholdOf, useStateIndex } from './use-allocator-state';

export interface SnapshotPageProps {
  readonly tab: SnapshotTab;
  readonly dispatch: Dispatch<AppAction>;
}

/** One open snapshot: figures and device on top, the timeline, the details, the views below. */
export function SnapshotPage({ tab, dispatch }: SnapshotPageProps) {
  const { view, ui } = tab;
  const device = selectedDevice(tab);
  const tabId = tab.id;
  const showWarnings = view.warnings.length > 0 && !ui.warningsDismissed;
  // The answer users open an OOM snapshot for: on every device, so switching does not move things.
  const oomDevice =
    device !== null && device.ooms.length > 0
      ? device
      : (view.devices.find((candidate) => candidate.ooms.length > 0) ?? null);

  return (
    <section className="snapshot-page" aria-label={view.fileName} data-testid="snapshot-page">
      <div className="snapshot-toolbar">
        <DeviceSelect
          devices={view.devices}
          device={device}
          onChange={(ordinal) => dispatch({ type: 'set-device', tabId, device: ordinal })}
        />
        {device && <SummaryStrip device={device} />}
        {device && (
          <XModeToggle
            device={device}
            xMode={effectiveXMode(ui, device)}
            onChange={(xMode) => dispatch({ type: 'set-x-mode', tabId, xMode })}
          />
        )}
      </div>
      {oomDevice !== null && device !== null && (
        <div className="oom-notice" role="note" data-testid="oom-notice">
          <span>
            <strong>cuda:{oomDevice.device} ran out of memory</strong> {describeOom(oomDevice)}
          </span>
          {oomDevice === device ? (
            <button
              type="button"
              className="button button-compact"
              data-testid="oom-go"
              onClick={() => {
                dispatch({ type: 'set-moment', tabId, moment: oomDevice.ooms[0]!.eventIndex });
                dispatch({ type: 'set-lower-view', tabId, view: 'oom' });
              }}
            >
              Explain it
            </button>
          ) : (
            <button
              type="button"
              className="button button-compact"
              data-testid="oom-device-link"
              onClick={() => dispatch({ type: 'set-device', tabId, device: oomDevice.device })}
            >
              Show cuda:{oomDevice.device}
            </button>
          )}
        </div>
      )}
      {showWarnings && (
        <WarningNotice
          warnings={view.warnings}
          onDismiss={() => dispatch({ type: 'dismiss-warnings', tabId })}
        />
      )}
      {device ? (
        <DeviceContent tab={tab} device={device} dispatch={dispatch} />
      ) : (
        <div className="empty-state">
          <p>
            <strong>No GPU memory in this snapshot.</strong> It records no segments and no trace
            entries on any device.
          </p>
        </div>
      )}
      <footer className="status-bar">
        <span title={`${formatExactBytes(view.fileBytes)} bytes`}>
          {view.fileName} · {formatBytes(view.fileBytes)}
        </span>
        <span>pickle protocol {view.pickleProtocol}</span>
        <span>
          {view.devices.length} {view.devices.length === 1 ? 'device' : 'devices'}
        </span>
        {device && (
          <span>{new Intl.NumberFormat('en-US').format(device.allocations.count)} allocations</span>
        )}
      </footer>
    </section>
  );
}

function describeOom(device: DeviceView): string {
  const first = device.ooms[0];
  if (first === undefined) return '';
  const more = device.ooms.length > 1 ? ` (and ${device.ooms.length - 1} more)` : '';
  return `at event ${formatExactBytes(first.eventIndex)}: ${formatBytes(first.requestedBytes)} requested${more}.`;
}

const LOWER_VIEWS: { id: LowerView; label: string; title: string }[] = [
  {
    id: 'largest',
    label: 'Largest allocations',
    title: 'The allocations alive at the selected moment, largest first',
  },
  {
    id: 'segments',
    label: 'Segments',
    title: 'The allocator’s segments and blocks at the selected moment',
  },
  {
    id: 'fragmentation',
    label: 'Fragmentation',
    title: 'Cached-but-unused memory over time, and the figures at the moment and the peak',
  },
  {
    id: 'oom',
    label: 'OOM',
    title: 'Why the allocation failed (or, without an OOM, what the peak left free)',
  },
];

function DeviceContent(props: {
  tab: SnapshotTab;
  device: DeviceView;
  dispatch: Dispatch<AppAction>;
}): JSX.Element {
  const { tab, device, dispatch } = props;
  const { view, ui } = tab;
  const tabId = tab.id;
  const deviceIndex = view.devices.indexOf(device);
  const xMode = effectiveXMode(ui, device);
  const stateIndex = useStateIndex(view, device);
  // Sorting every allocation's size: only once the state index exists (after the first paint).
  const threshold = useMemo(
    () => (stateIndex === null ? 0 : smallHoleThresholdOf(device)),
    [device, stateIndex],
  );
  const hasOom = device.ooms.length > 0;
  const moment = clampMoment(device, ui.moment ?? defaultMoment(device));
  const lowerView: LowerView = ui.lowerView ?? (hasOom ? 'oom' : 'largest');
  const [timelineWindow, setTimelineWindow] = useState<TimelineDomainInfo | null>(null);

  const onSelectRow = (row: number | null): void => dispatch({ type: 'select-row', tabId, row });
  const setMoment = (event: number | null): void =>
    dispatch({
      type: 'set-moment',
      tabId,
      moment: event === null ? null : clampMoment(device, event),
    });
  const setLowerView = (next: LowerView): void =>
    dispatch({ type: 'set-lower-view', tabId, view: next });

  // ← → step the moment by an event, Shift by 1% of the trace, Home End go to the ends, wherever
  // the keys are not someone else's (text fields, the focused timeline's own panning).
  useLayoutEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || isEditingTarget(event.target)) return;
      const step = momentStepOfKey(event);
      if (step === null) return;
      if (event.target instanceof Element && event.target.closest('[data-testid="timeline"]')) {
        // The focused timeline pans with the arrows; Home and End are free there.
        if (step !== 'first' && step !== 'last') return;
      }
      event.preventDefault();
      dispatch({ type: 'set-moment', tabId, moment: stepMoment(device, moment, step) });
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [dispatch, tabId, device, moment]);

  // The table keeps "at the active peak" while nothing else was chosen.
  const tableMoment = ui.moment !== null || hasOom ? moment : null;
  const exportWindow =
    timelineWindow === null
      ? null
      : { startEvent: timelineWindow.startEvent, endEvent: timelineWindow.endEvent };

  return (
    <>
      <div className={ui.selectedRow === null ? 'snapshot-main' : 'snapshot-main with-panel'}>
        <div className="timeline-area">
          <TimelineView
            view={view}
            device={device}
            xMode={xMode}
            selectedRow={ui.selectedRow}
            onSelectRow={onSelectRow}
            moment={moment}
            onMoment={setMoment}
            onWindowChange={setTimelineWindow}
          />
        </div>
        {ui.selectedRow !== null && (
          <aside className="panel-area" aria-label="Selected allocation">
            <AllocationPanel
              view={view}
              device={device}
              row={ui.selectedRow}
              onClose={() => onSelectRow(null)}
            />
          </aside>
        )}
      </div>
      <div className="lower-bar">
        <div className="lower-tabs" role="tablist" aria-label="Views of the selected moment">
          {LOWER_VIEWS.map((entry) => {
            const selected = entry.id === lowerView;
            const alarm = entry.id === 'oom' && hasOom;
            return (
              <button
                key={entry.id}
                type="button"
                role="tab"
                id={`lower-tab-${entry.id}`}
                aria-selected={selected}
                aria-controls="lower-view"
                className={alarm ? 'lower-tab lower-tab-alarm' : 'lower-tab'}
                data-testid={`view-tab-${entry.id}`}
                title={alarm ? `${entry.title} — this device ran out of memory` : entry.title}
                onClick={() => setLowerView(entry.id)}
              >
                {entry.label}
                {alarm && (
                  <span className="lower-tab-badge" aria-label={`${device.ooms.length} OOM`}>
                    {device.ooms.length}
                  </span>
                )}
              </button>
            );
          })}
        </div>
        <MomentBar device={device} moment={moment} onMoment={(event) => setMoment(event)} />
        {stateIndex !== null ? (
          <ExportBar
            view={view}
            deviceIndex={deviceIndex}
            stateIndex={stateIndex}
            moment={moment}
            activeView={lowerView === 'segments' ? 'segments' : 'timeline'}
            timelineWindow={exportWindow}
            xMode={xMode}
            isActiveTab
          />
        ) : (
          <div className="export-placeholder" aria-hidden="true" />
        )}
      </div>
      <div
        className="lower-area"
        id="lower-view"
        role="tabpanel"
        aria-labelledby={`lower-tab-${lowerView}`}
        data-view={lowerView}
      >
        {lowerView === 'largest' && (
          <LargestAllocationsTable
            view={view}
            device={device}
            moment={tableMoment}
            selectedRow={ui.selectedRow}
            onSelectRow={onSelectRow}
          />
        )}
        {lowerView === 'segments' && (
          <SegmentsView
            view={view}
            device={device}
            stateIndex={stateIndex}
            moment={moment}
            smallHoleThresholdBytes={threshold}
            selectedRow={ui.selectedRow}
            onSelectRow={onSelectRow}
          />
        )}
        {lowerView === 'fragmentation' && (
          <FragmentationPanel
            view={view}
            device={device}
            stateIndex={stateIndex}
            moment={moment}
            smallHoleThresholdBytes={threshold}
            xMode={xMode}
            timelineWindow={timelineWindow}
            onMoment={(event) => setMoment(event)}
          />
        )}
        {lowerView === 'oom' &&
          (stateIndex === null ? (
            <p className="lower-pending">Reconstructing the allocator state…</p>
          ) : (
            <div className="lower-scroll">
              <OomExplainerPanel
                view={view}
                deviceIndex={deviceIndex}
                stateIndex={stateIndex}
                onGoToEvent={(event) => setMoment(event)}
                onSelectRow={(row) => onSelectRow(row)}
              />
            </div>
          ))}
      </div>
    </>
  );
}

/** The selected moment in words, with buttons to step it and to jump to the peak or the OOM. */
function MomentBar(props: {
  device: DeviceView;
  moment: number;
  onMoment: (event: number) => void;
}): JSX.Element {
  const { device, moment, onMoment } = props;
  const peak = clampMoment(device, device.summary.active_bytes.peak_event_index);
  const oom = firstOomEvent(device);
  return (
    <div className="moment-bar" role="group" aria-label="Selected moment">
      <span className="toolbar-label">Moment</span>
      <span className="tl-button-group">
        <button
          type="button"
          className="tl-button"
          aria-label="Previous event"
          title="Previous event (←; Shift+← 1% of the trace; Home: the start)"
          onClick={() => onMoment(stepMoment(device, moment, 'previous'))}
        >
          ‹
        </button>
        <button
          type="button"
          className="tl-button"
          aria-label="Next event"
          title="Next event (→; Shift+→ 1% of the trace; End: the end)"
          onClick={() => onMoment(stepMoment(device, moment, 'next'))}
        >
          ›
        </button>
      </span>
      <span
        className="moment-label"
        data-testid="moment-label"
        data-moment={String(moment)}
        aria-live="polite"
        title="Click the timeline to choose another moment; ← → step through events"
      >
        {describeMoment(device, moment)}
      </span>
      <span className="tl-button-group">
        <button
          type="button"
          className="tl-button"
          data-testid="moment-peak"
          aria-pressed={moment === peak}
          title="The active peak"
          onClick={() => onMoment(peak)}
        >
          Peak
        </button>
        {oom !== null && (
          <button
            type="button"
            className="tl-button moment-oom"
            data-testid="moment-oom"
            aria-pressed={moment === oom}
            title="The first out-of-memory event"
            onClick={() => onMoment(oom)}
          >
            OOM
          </button>
        )}
      </span>
    </div>
  );
}

function DeviceSelect(props: {
  devices: readonly DeviceView[];
  device: DeviceView | null;
  onChange: (ordinal: number) => void;
}) {
  const { devices, device, onChange } = props;
  return (
    <label className="device-select">
      <span className="toolbar-label">Device</span>
      <select
        data-testid="device-select"
        value={device === null ? '' : String(device.device)}
        disabled={devices.length < 2}
        title={devices.length < 2 ? 'This snapshot has one device' : 'Show another device'}
        onChange={(event) => onChange(Number(event.target.value))}
      >
        {devices.length === 0 && <option value="">none</option>}
        {devices.map((d) => (
          <option key={d.device} value={String(d.device)}>
            cuda:{d.device}
          </option>
        ))}
      </select>
    </label>
  );
}

function XModeToggle(props: {
  device: DeviceView;
  xMode: XMode;
  onChange: (xMode: XMode) => void;
}) {
  const { device, xMode, onChange } = props;
  const hasTimes = device.timeUs !== null;
  const option = (value: XMode, label: string, title: string, disabled = false) => (
    <button
      type="button"
      role="radio"
      aria-checked={xMode === value}
      data-value={value}
      disabled={disabled}
      title={title}
      onClick={() => onChange(value)}
    >
      {label}
    </button>
  );
  return (
    <div
      className="segmented x-mode"
      role="radiogroup"
      aria-label="Horizontal axis"
      data-testid="x-mode"
      data-value={xMode}
    >
      {option(
        'time',
        'Time',
        hasTimes ? 'Events placed by their time stamps' : 'This device records no times (time_us)',
        !hasTimes,
      )}
      {option('event', 'Event #', 'Events evenly spaced, in trace order')}
    </div>
  );
}
