import type { Dispatch } from 'react';
import { formatBytes, formatExactBytes } from '@shared/units';
import type { DeviceView } from '@shared/view/snapshot-view';
import {
  effectiveXMode,
  selectedDevice,
  type AppAction,
  type SnapshotTab,
  type XMode,
} from '../state/app-state';
import { AllocationPanel } from './allocation-panel';
import { LargestAllocationsTable } from './largest-allocations-table';
import { WarningNotice } from './notices';
import { SummaryStrip } from './summary-strip';
import { TimelineView } from './timeline-view';

export interface SnapshotPageProps {
  readonly tab: SnapshotTab;
  readonly dispatch: Dispatch<AppAction>;
}

/** One open snapshot: figures and device on top, the timeline, the details, the table below. */
export function SnapshotPage({ tab, dispatch }: SnapshotPageProps) {
  const { view, ui } = tab;
  const device = selectedDevice(tab);
  const tabId = tab.id;
  const showWarnings = view.warnings.length > 0 && !ui.warningsDismissed;

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
      {showWarnings && (
        <WarningNotice
          warnings={view.warnings}
          onDismiss={() => dispatch({ type: 'dismiss-warnings', tabId })}
        />
      )}
      {device ? (
        <DeviceContent
          tab={tab}
          device={device}
          onSelectRow={(row) => dispatch({ type: 'select-row', tabId, row })}
          onMoment={(moment) => dispatch({ type: 'set-moment', tabId, moment })}
        />
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

function DeviceContent(props: {
  tab: SnapshotTab;
  device: DeviceView;
  onSelectRow: (row: number | null) => void;
  onMoment: (moment: number | null) => void;
}) {
  const { tab, device, onSelectRow, onMoment } = props;
  const { view, ui } = tab;
  return (
    <>
      <div className={ui.selectedRow === null ? 'snapshot-main' : 'snapshot-main with-panel'}>
        <div className="timeline-area">
          <TimelineView
            view={view}
            device={device}
            xMode={effectiveXMode(ui, device)}
            selectedRow={ui.selectedRow}
            onSelectRow={onSelectRow}
            moment={ui.moment}
            onMoment={onMoment}
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
      <div className="table-area">
        <LargestAllocationsTable
          view={view}
          device={device}
          moment={ui.moment}
          selectedRow={ui.selectedRow}
          onSelectRow={onSelectRow}
        />
      </div>
    </>
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
