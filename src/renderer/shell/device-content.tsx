// One device of an open snapshot, in resizable panes (snapshot-panes.tsx): the timeline above;
// the bar of the lower views (with the moment and the exports) and the chosen lower view below
// it, the selected allocation's panel beside the lower view.

import { useHolderFilter } from '../holders/use-holder-filter';
import { useCallback, useMemo, type JSX } from 'react';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import { smallHoleThreshold } from '@shared/state/memory-figures';
import { effectiveXMode, type SnapshotTab } from '../state/app-state';
import { useTab, useTabStore } from '../state/tab-store-context';
import { AllocationPanel } from '../allocations/allocation-panel';
import { HoldersView } from '../holders/holders-view';
import { ExportBar, exportedViewOf } from '../export/export-bar';
import { FragmentationPanel } from '../fragmentation/fragmentation-panel';
import { LargestAllocationsTable } from '../allocations/largest-allocations-table';
import { LowerViewTabs } from './lower-view-tabs';
import {
  lowerViewOfCommand,
  shownLowerView,
  tableMomentOf,
  timelineClickHint,
} from './lower-views';
import { ViewBoundary } from '../ui/view-boundary';
import { useShortcuts } from '../state/use-shortcuts';
import { SnapshotPanes } from './snapshot-panes';
import { FullPageButton } from './full-page-button';
import { clampMoment, defaultMoment } from '@shared/analyzed/moments';
import { MomentBar } from '../moment/moment-bar';
import { OomExplainerPanel } from '../oom/oom-explainer-panel';
import { SegmentsView } from '../segments/segments-view';
import { TimelineView } from '../timeline/timeline-view';
import { useStateIndex } from '../moment/use-allocator-state';
import { useMomentKeys } from '../moment/use-moment-keys';
import { StepsView } from '../steps/steps-view';
import { CompareView } from '../compare/compare-view';
import { compareCandidates } from '../compare/compare-candidates';
import { stepsOf } from '@shared/steps/find-steps';

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
  const deviceIndex = snapshot.devices.indexOf(device);
  const xMode = effectiveXMode({ xMode: useTab((state) => state.xMode) }, device);
  const stateIndex = useStateIndex(snapshot, device);
  // Sorting every allocation's size: only once the state index exists (after the first paint).
  const threshold = useMemo(
    () => (stateIndex === null ? 0 : smallHoleThreshold(device)),
    [device, stateIndex],
  );
  const hasOom = device.ooms.length > 0;
  const chosenMoment = useTab((state) => state.moment);
  const moment = clampMoment(device, chosenMoment ?? defaultMoment(device));
  const lowerView = shownLowerView(
    useTab((state) => state.lowerView),
    hasOom,
  );
  const selectedRow = useTab((state) => state.selectedRow);
  const compareWith = useTab((state) => state.compareWith);
  const fullPage = useTab((state) => state.fullPage);
  const findRequest = useTab((state) => state.findRequest);
  // The window only where a view follows it (Fragmentation): zooming re-renders nothing else.
  const followsWindow = lowerView === 'fragmentation';
  const timelineWindow = useTab((state) => (followsWindow ? state.timelineWindow : null));

  const onSelectRow = actions.selectRow;
  const setMoment = (event: number | null): void =>
    actions.setMoment(event === null ? null : clampMoment(device, event));
  const setLowerView = actions.setLowerView;
  useMomentKeys(device, moment, actions.setMoment);
  // The search and the flame graph's zoom hold across the views below the timeline.
  const filter = useHolderFilter(snapshot, device);
  // The training steps: the timeline's ruler and the Steps view.
  const steps = useMemo(() => stepsOf(snapshot, device), [snapshot, device]);
  useShortcuts('page', (command) => {
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
    setLowerView(next);
    return true;
  });

  const tableMoment = tableMomentOf(chosenMoment, hasOom, moment);
  const exportWindow = useCallback((): { startEvent: number; endEvent: number } | null => {
    const window = store.getState().timelineWindow;
    return window === null ? null : { startEvent: window.startEvent, endEvent: window.endEvent };
  }, [store]);
  const viewPicture = useCallback(() => store.getState().viewPicture, [store]);

  const panel =
    selectedRow === null ? null : (
      // A new allocation gets a new boundary: one whose panel failed may well show.
      <ViewBoundary key={selectedRow} name="allocation panel">
        <AllocationPanel
          view={snapshot}
          device={device}
          row={selectedRow}
          onClose={() => onSelectRow(null)}
        />
      </ViewBoundary>
    );

  return (
    <SnapshotPanes
      fullPage={fullPage}
      panel={panel}
      timeline={
        <ViewBoundary name="timeline">
          <TimelineView
            view={snapshot}
            device={device}
            xMode={xMode}
            selectedRow={selectedRow}
            onSelectRow={onSelectRow}
            moment={moment}
            onMoment={setMoment}
            onWindowChange={actions.setTimelineWindow}
            clickHint={timelineClickHint(lowerView)}
            search={filter.timelineSearch}
            steps={steps.steps}
          />
        </ViewBoundary>
      }
      lowerBar={
        <div className="lower-bar">
          <LowerViewTabs
            selected={lowerView}
            oomCount={device.ooms.length}
            onSelect={setLowerView}
          />
          <FullPageButton fullPage={fullPage} onChange={actions.setFullPage} />
          <MomentBar device={device} moment={moment} onMoment={(event) => setMoment(event)} />
          {stateIndex !== null ? (
            <ExportBar
              view={snapshot}
              deviceIndex={deviceIndex}
              stateIndex={stateIndex}
              moment={moment}
              activeView={exportedViewOf(lowerView as Parameters<typeof exportedViewOf>[0])}
              timelineWindow={exportWindow}
              xMode={xMode}
              viewPicture={viewPicture}
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
          aria-labelledby={`lower-tab-${lowerView}`}
          data-view={lowerView}
        >
          {/* Each view its own boundary: another view, picked in the bar, draws again. */}
          <ViewBoundary key={lowerView} name={`${lowerView} view`}>
            {lowerView === 'largest' && (
              <LargestAllocationsTable
                view={snapshot}
                device={device}
                moment={tableMoment}
                filter={filter}
                selectedRow={selectedRow}
                onSelectRow={onSelectRow}
              />
            )}
            {lowerView === 'segments' && (
              <SegmentsView
                view={snapshot}
                device={device}
                stateIndex={stateIndex}
                moment={moment}
                smallHoleThresholdBytes={threshold}
                selectedRow={selectedRow}
                onSelectRow={onSelectRow}
              />
            )}
            {lowerView === 'fragmentation' && (
              <FragmentationPanel
                view={snapshot}
                device={device}
                stateIndex={stateIndex}
                moment={moment}
                smallHoleThresholdBytes={threshold}
                xMode={xMode}
                timelineWindow={timelineWindow}
                onMoment={(event) => setMoment(event)}
              />
            )}
            {lowerView === 'holders' && (
              <HoldersView
                view={snapshot}
                device={device}
                moment={moment}
                findRequest={findRequest}
                filter={filter}
              />
            )}
            {lowerView === 'steps' && (
              <StepsView
                view={snapshot}
                device={device}
                found={steps}
                moment={moment}
                onMoment={(event) => setMoment(event)}
                filter={filter}
                onPicture={actions.setViewPicture}
              />
            )}
            {lowerView === 'compare' && (
              <CompareView
                view={snapshot}
                device={device}
                steps={steps}
                candidates={compareCandidates(openSnapshots, tab, device)}
                chosenId={compareWith}
                onChoose={actions.chooseComparison}
                onPicture={actions.setViewPicture}
              />
            )}
            {lowerView === 'oom' &&
              (stateIndex === null ? (
                <p className="lower-pending">Reconstructing the allocator state…</p>
              ) : (
                <div className="lower-scroll">
                  <OomExplainerPanel
                    view={snapshot}
                    deviceIndex={deviceIndex}
                    stateIndex={stateIndex}
                    onGoToEvent={(event) => setMoment(event)}
                    onSelectRow={(row) => onSelectRow(row)}
                  />
                </div>
              ))}
          </ViewBoundary>
        </div>
      }
    />
  );
}
