import type { Dispatch } from 'react';
import {
  effectiveXMode,
  selectedDevice,
  type AppAction,
  type SnapshotTab,
} from '../state/app-state';
import { DeviceContent } from './device-content';
import { DeviceSelect } from './device-select';
import { WarningNotice } from './notices';
import { NoticeStrip, type NoticeItem } from './notice-strip';
import { OomNotice } from '../oom/oom-notice';
import { oomNoticeDevice } from '../oom/oom-notice-text';
import './snapshot-page.css';
import { SnapshotStatusBar } from './snapshot-status-bar';
import { SummaryStrip } from './summary-strip';
import { XModeToggle } from '../timeline/x-mode-toggle';

export interface SnapshotPageProps {
  readonly tab: SnapshotTab;
  readonly dispatch: Dispatch<AppAction>;
  /** Every open snapshot: the Compare view lists them. */
  readonly openSnapshots: readonly SnapshotTab[];
}

/** Page notices shown side by side on one line; more fold behind "N more notices". */
export const PAGE_NOTICE_LINES = 2;

/**
 * One open snapshot: the device, its figures and its notices (the OOM, warnings) on one line (a
 * laptop screen shows the main figures only, the notices wrap under them only where they do not
 * fit), then the panes (the timeline, the views below it, the allocation panel).
 */
export function SnapshotPage({ tab, dispatch, openSnapshots }: SnapshotPageProps) {
  const { view, ui } = tab;
  const device = selectedDevice(tab);
  const tabId = tab.id;
  const showWarnings = view.warnings.length > 0 && !ui.warningsDismissed;
  // The answer users open an OOM snapshot for: on every device, so switching does not move things.
  const oomDevice = oomNoticeDevice(view.devices, device);
  const showDevice = (ordinal: number): void =>
    dispatch({ type: 'set-device', tabId, device: ordinal });

  // The OOM first: it is what people open such a snapshot for.
  const notices: NoticeItem[] = [];
  if (oomDevice !== null && device !== null)
    notices.push({
      key: 'oom',
      node: (
        <OomNotice
          oomDevice={oomDevice}
          device={device}
          onExplain={() => {
            dispatch({ type: 'set-moment', tabId, moment: oomDevice.ooms[0]!.eventIndex });
            dispatch({ type: 'set-lower-view', tabId, view: 'oom' });
          }}
          onShowDevice={showDevice}
        />
      ),
    });
  if (showWarnings)
    notices.push({
      key: 'warnings',
      node: (
        <WarningNotice
          warnings={view.warnings}
          onDismiss={() => dispatch({ type: 'dismiss-warnings', tabId })}
        />
      ),
    });

  return (
    <section className="snapshot-page" aria-label={view.fileName} data-testid="snapshot-page">
      <div className="snapshot-toolbar">
        <DeviceSelect devices={view.devices} device={device} onChange={showDevice} />
        {device && <SummaryStrip device={device} />}
        <NoticeStrip
          className="page-notices"
          label="Notices about this snapshot"
          testId="page-notices"
          layout="row"
          room={PAGE_NOTICE_LINES}
          items={notices}
        />
        {device && (
          <XModeToggle
            device={device}
            xMode={effectiveXMode(ui, device)}
            onChange={(xMode) => dispatch({ type: 'set-x-mode', tabId, xMode })}
          />
        )}
      </div>
      {device ? (
        <DeviceContent
          tab={tab}
          device={device}
          dispatch={dispatch}
          openSnapshots={openSnapshots}
        />
      ) : (
        <div className="empty-state">
          <p>
            <strong>No GPU memory in this snapshot.</strong> It records no segments and no trace
            entries on any device.
          </p>
        </div>
      )}
      <SnapshotStatusBar view={view} device={device} />
    </section>
  );
}
