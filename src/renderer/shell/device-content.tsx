// One device of an open snapshot: the timeline (with the selected allocation's panel beside it),
// the bar of the lower views with the moment and the exports, and the chosen lower view.

import { useCallback, useMemo, useState, type Dispatch, type JSX } from 'react';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import { smallHoleThreshold } from '@shared/state/memory-figures';
import type { TimelineDomainInfo } from '../timeline/timeline-chart';
import { effectiveXMode, type AppAction, type LowerView, type SnapshotTab } from './app-state';
import { AllocationPanel } from '../allocations/allocation-panel';
import { ExportBar } from '../export/export-bar';
import { FragmentationPanel } from '../fragmentation/fragmentation-panel';
import { LargestAllocationsTable } from '../allocations/largest-allocations-table';
import { LowerViewTabs } from './lower-view-tabs';
import { shownLowerView, tableMomentOf, timelineClickHint } from './lower-views';
import { clampMoment, defaultMoment } from '@shared/analyzed/moments';
import { MomentBar } from '../moment/moment-bar';
import { OomExplainerPanel } from '../oom/oom-explainer-panel';
import { SegmentsView } from '../segments/segments-view';
import { TimelineView } from '../timeline/timeline-view';
import { useStateIndex } from '../moment/use-allocator-state';
import { useMomentKeys } from '../moment/use-moment-keys';

export function DeviceContent(props: {
  tab: SnapshotTab;
  device: AnalyzedDevice;
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
    () => (stateIndex === null ? 0 : smallHoleThreshold(device)),
    [device, stateIndex],
  );
  const hasOom = device.ooms.length > 0;
  const moment = clampMoment(device, ui.moment ?? defaultMoment(device));
  const lowerView = shownLowerView(ui.lowerView, hasOom);
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
  const stepTo = useCallback(
    (next: number): void => dispatch({ type: 'set-moment', tabId, moment: next }),
    [dispatch, tabId],
  );
  useMomentKeys(device, moment, stepTo);

  const tableMoment = tableMomentOf(ui.moment, hasOom, moment);
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
            clickHint={timelineClickHint(lowerView)}
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
        <LowerViewTabs selected={lowerView} oomCount={device.ooms.length} onSelect={setLowerView} />
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
