import { effectiveXMode, type SnapshotTab } from '../state/app-state';
import { TabStoreContext, useTab } from '../state/tab-store-context';
import { DeviceContent } from './device-content';
import { DeviceSelect } from './device-select';
import { WarningNotice } from './notices';
import { NoticeStrip, type NoticeItem } from './notice-strip';
import { OomNotice } from '../oom/oom-notice';
import { oomNoticeDevice } from '../oom/oom-notice-text';
import './snapshot-page.css';
import { SnapshotStatusBar } from './snapshot-status-bar';
import { SummaryStrip } from './summary-strip';
import { CategoriesAtPeak } from './categories-at-peak';
import { XModeToggle } from '../timeline/x-mode-toggle';

export interface SnapshotPageProps {
  readonly tab: SnapshotTab;
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
export function SnapshotPage(props: SnapshotPageProps) {
  return (
    <TabStoreContext.Provider value={props.tab.store}>
      <SnapshotPageContent {...props} />
    </TabStoreContext.Provider>
  );
}

function SnapshotPageContent({ tab, openSnapshots }: SnapshotPageProps) {
  const { snapshot, store } = tab;
  const actions = store.getState();
  const deviceIndex = useTab((state) => state.deviceIndex);
  const device = deviceIndex === null ? null : (snapshot.devices[deviceIndex] ?? null);
  const warningsDismissed = useTab((state) => state.warningsDismissed);
  const xMode = useTab((state) => state.xMode);
  const showWarnings = snapshot.warnings.length > 0 && !warningsDismissed;
  // The answer users open an OOM snapshot for: on every device, so switching does not move things.
  const oomDevice = oomNoticeDevice(snapshot.devices, device);

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
            actions.setMoment(oomDevice.ooms[0]!.eventIndex);
            actions.setLowerView('oom');
          }}
          onShowDevice={actions.showDevice}
        />
      ),
    });
  if (showWarnings)
    notices.push({
      key: 'warnings',
      node: <WarningNotice warnings={snapshot.warnings} onDismiss={actions.dismissWarnings} />,
    });

  return (
    <section className="snapshot-page" aria-label={snapshot.fileName} data-testid="snapshot-page">
      <div className="snapshot-toolbar">
        <DeviceSelect devices={snapshot.devices} device={device} onChange={actions.showDevice} />
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
            xMode={effectiveXMode({ xMode }, device)}
            onChange={actions.setXMode}
          />
        )}
      </div>
      {device && <CategoriesAtPeak device={device} />}
      {device ? (
        <DeviceContent tab={tab} device={device} openSnapshots={openSnapshots} />
      ) : (
        <div className="empty-state">
          <p>
            <strong>No GPU memory in this snapshot.</strong> It records no segments and no trace
            entries on any device.
          </p>
        </div>
      )}
      <SnapshotStatusBar
        snapshot={snapshot}
        device={device}
        servedFrom={tab.servedFrom}
        decodeThreads={tab.decodeThreads}
      />
    </section>
  );
}
