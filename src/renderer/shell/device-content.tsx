// One device of an open snapshot, in resizable panes (snapshot-panes.tsx): the timeline above;
// the bar of the lower views (with the moment and the exports) and the chosen lower view below
// it, the selected allocation's panel beside the lower view. The lower views are the registry's
// (registry/lower-views.ts): this page knows none of them by name; each reads the tab's store.

import { useMemo, type JSX } from 'react';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import { clampMoment, defaultMoment } from '@shared/analyzed/moments';
import { stepsOf } from '@shared/steps/find-steps';
import { effectiveXMode, type SnapshotTab } from '../state/app-state';
import { useTab, useTabStore } from '../state/tab-store-context';
import { useShortcuts } from '../state/use-shortcuts';
import { lowerViewOfCommand, PAGE_SHORTCUTS, shownLowerView } from '../registry/lower-views';
import { AllocationPanel } from '../allocations/allocation-panel';
import { useHolderFilter } from '../holders/use-holder-filter';
import { ExportBar } from '../export/export-bar';
import { ViewBoundary } from '../ui/view-boundary';
import { MomentBar } from '../moment/moment-bar';
import { TimelineView } from '../timeline/timeline-view';
import { useStateIndex } from '../moment/use-allocator-state';
import { useMomentKeys } from '../moment/use-moment-keys';
import { LowerViewTabs } from './lower-view-tabs';
import { SnapshotPanes } from './snapshot-panes';
import { FullPageButton } from './full-page-button';
import { entryFor, SegmentsNotRecorded, segmentsMissingFor } from './segments-not-recorded';

export function DeviceContent(props: {
  tab: SnapshotTab;
  device: AnalyzedDevice;
  /** Every open snapshot (this one too): what the Compare view offers. */
  openSnapshots: readonly SnapshotTab[];
}): JSX.Element {
  const { tab, device, openSnapshots } = props;
  const { snapshot } = tab;
  const store = useTabStore();
  const actions = store.getState();
  const xMode = effectiveXMode({ xMode: useTab((state) => state.xMode) }, device);
  const stateIndex = useStateIndex(snapshot, device);
  const moment = clampMoment(device, useTab((state) => state.moment) ?? defaultMoment(device));
  const lowerView = shownLowerView(
    useTab((state) => state.lowerView),
    device.ooms.length > 0,
  );
  const selectedRow = useTab((state) => state.selectedRow);
  const fullPage = useTab((state) => state.fullPage);

  const setMoment = (event: number | null): void =>
    actions.setMoment(event === null ? null : clampMoment(device, event));
  useMomentKeys(device, moment, actions.setMoment);
  // The search and the flame graph's zoom: the timeline draws what they keep.
  const filter = useHolderFilter(snapshot, device);
  // The training steps: the timeline's ruler.
  const steps = useMemo(() => stepsOf(snapshot, device), [snapshot, device]);
  useShortcuts(
    'page',
    (command) => {
      if (command === 'lower-full-page') {
        actions.setFullPage(!store.getState().fullPage);
        return true;
      }
      if (command === 'find') {
        actions.requestFind();
        return true;
      }
      const next = lowerViewOfCommand(command);
      if (next === null) return false;
      actions.setLowerView(next.id);
      return true;
    },
    PAGE_SHORTCUTS,
  );

  const panel =
    selectedRow === null ? null : (
      // A new allocation gets a new boundary: one whose panel failed may well show.
      <ViewBoundary key={selectedRow} name="allocation panel">
        <AllocationPanel
          snapshot={snapshot}
          device={device}
          row={selectedRow}
          onClose={() => actions.selectRow(null)}
        />
      </ViewBoundary>
    );
  const LowerView = lowerView.component;
  const segmentsMissing = segmentsMissingFor(lowerView, snapshot);

  return (
    <SnapshotPanes
      fullPage={fullPage}
      panel={panel}
      timeline={
        <ViewBoundary name="timeline">
          <TimelineView
            snapshot={snapshot}
            device={device}
            xMode={xMode}
            selectedRow={selectedRow}
            onSelectRow={actions.selectRow}
            moment={moment}
            onMoment={setMoment}
            onWindowChange={actions.setTimelineWindow}
            clickHint={lowerView.clickHint}
            search={filter.timelineSearch}
            steps={steps.steps}
          />
        </ViewBoundary>
      }
      lowerBar={
        <div className="lower-bar">
          <LowerViewTabs
            selected={lowerView.id}
            oomCount={device.ooms.length}
            onSelect={actions.setLowerView}
          />
          <FullPageButton fullPage={fullPage} onChange={actions.setFullPage} />
          <MomentBar device={device} moment={moment} onMoment={(event) => setMoment(event)} />
          {stateIndex !== null ? (
            <ExportBar
              snapshot={snapshot}
              device={device}
              stateIndex={stateIndex}
              moment={moment}
              entry={entryFor(lowerView, snapshot)}
              xMode={xMode}
              isActiveTab
            />
          ) : (
            <div className="export-placeholder" aria-hidden="true" />
          )}
        </div>
      }
      lowerView={
        <div
          className="lower-area"
          id="lower-view"
          role="tabpanel"
          aria-labelledby={`lower-tab-${lowerView.id}`}
          data-view={lowerView.id}
        >
          {/* Each view its own boundary: another view, picked in the bar, draws again. */}
          <ViewBoundary key={lowerView.id} name={`${lowerView.id} view`}>
            {segmentsMissing ? (
              <SegmentsNotRecorded snapshot={snapshot} />
            ) : (
              <LowerView
                snapshot={snapshot}
                device={device}
                stateIndex={stateIndex}
                moment={moment}
                tab={tab}
                openSnapshots={openSnapshots}
              />
            )}
          </ViewBoundary>
        </div>
      }
    />
  );
}
