// One device of an open snapshot, in resizable panes (snapshot-panes.tsx): the timeline above;
// the bar of the lower views (with the moment and the exports) and the chosen lower view below
// it, the selected allocation's panel beside the lower view.

import { useHolderFilter } from '../holders/use-holder-filter';
import {
  startTransition,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type Dispatch,
  type JSX,
} from 'react';
import type { AnalyzedDevice } from '@shared/analyzed/analyzed-snapshot';
import { smallHoleThreshold } from '@shared/state/memory-figures';
import type { TimelineDomainInfo } from '../timeline/timeline-chart';
import {
  effectiveXMode,
  type AppAction,
  type LowerView,
  type SnapshotTab,
} from '../state/app-state';
import { AllocationPanel } from '../allocations/allocation-panel';
import { HoldersView } from '../holders/holders-view';
import { ExportBar, exportedViewOf } from '../export/export-bar';
import type { ViewPicture } from '../export/export-files';
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
import { useRememberedFlag } from '../allocations/remembered-flag';
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
  dispatch: Dispatch<AppAction>;
  /** Every open snapshot (this one too): what the Compare view offers. */
  openSnapshots: readonly SnapshotTab[];
}): JSX.Element {
  const { tab, device, dispatch, openSnapshots } = props;
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
  // The timeline's window: kept in a ref, read by the exports when they run; React state (a render
  // of this page) only while the fragmentation view, which follows the window, is shown. Zooming on
  // any other view re-renders nothing here.
  const timelineWindowRef = useRef<TimelineDomainInfo | null>(null);
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
  // The search and the flame graph's zoom hold across the views below the timeline.
  const filter = useHolderFilter(view, device);
  // The training steps: the timeline's ruler and the Steps view.
  const steps = useMemo(() => stepsOf(view, device), [view, device]);
  // The lower view on the whole page (the M key, the button in its bar), remembered.
  const [fullPage, setFullPage] = useRememberedFlag('allocscope.panes.lowerFullPage', false);
  /** Bumped by Ctrl/Cmd+F: the holders view focuses its search box. */
  const [findRequest, setFindRequest] = useState(0);
  useShortcuts('page', (command) => {
    if (command === 'lower-full-page') {
      setFullPage(!fullPage);
      return true;
    }
    if (command === 'find') {
      setLowerView('holders');
      setFindRequest((count) => count + 1);
      return true;
    }
    const next = lowerViewOfCommand(command);
    if (next === null) return false;
    setLowerView(next);
    return true;
  });

  const tableMoment = tableMomentOf(ui.moment, hasOom, moment);
  // The Steps and Compare views hand over how to draw their picture as shown (export-files.ts).
  const viewPictureRef = useRef<ViewPicture | null>(null);
  const viewPicture = useCallback((): ViewPicture | null => viewPictureRef.current, []);
  const setViewPicture = useCallback((picture: ViewPicture | null): void => {
    viewPictureRef.current = picture;
  }, []);
  const exportWindow = useCallback((): { startEvent: number; endEvent: number } | null => {
    const window = timelineWindowRef.current;
    return window === null ? null : { startEvent: window.startEvent, endEvent: window.endEvent };
  }, []);
  const followsWindow = lowerView === 'fragmentation';
  const onWindowChange = useCallback(
    (window: TimelineDomainInfo): void => {
      timelineWindowRef.current = window;
      if (followsWindow) startTransition(() => setTimelineWindow(window));
    },
    [followsWindow],
  );
  // Switching to the fragmentation view picks up the window the timeline shows now.
  useEffect(() => {
    if (followsWindow) setTimelineWindow(timelineWindowRef.current);
  }, [followsWindow]);

  const panel =
    ui.selectedRow === null ? null : (
      // A new allocation gets a new boundary: one whose panel failed may well show.
      <ViewBoundary key={ui.selectedRow} name="allocation panel">
        <AllocationPanel
          view={view}
          device={device}
          row={ui.selectedRow}
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
            view={view}
            device={device}
            xMode={xMode}
            selectedRow={ui.selectedRow}
            onSelectRow={onSelectRow}
            moment={moment}
            onMoment={setMoment}
            onWindowChange={onWindowChange}
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
          <FullPageButton fullPage={fullPage} onChange={setFullPage} />
          <MomentBar device={device} moment={moment} onMoment={(event) => setMoment(event)} />
          {stateIndex !== null ? (
            <ExportBar
              view={view}
              deviceIndex={deviceIndex}
              stateIndex={stateIndex}
              moment={moment}
              activeView={exportedViewOf(lowerView)}
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
                view={view}
                device={device}
                moment={tableMoment}
                filter={filter}
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
            {lowerView === 'holders' && (
              <HoldersView
                view={view}
                device={device}
                moment={moment}
                findRequest={findRequest}
                filter={filter}
              />
            )}
            {lowerView === 'steps' && (
              <StepsView
                view={view}
                device={device}
                found={steps}
                moment={moment}
                onMoment={(event) => setMoment(event)}
                filter={filter}
                onPicture={setViewPicture}
              />
            )}
            {lowerView === 'compare' && (
              <CompareView
                view={view}
                device={device}
                steps={steps}
                candidates={compareCandidates(openSnapshots, tab, device)}
                chosenId={ui.compareWith}
                onChoose={(candidateId) => dispatch({ type: 'compare-with', tabId, candidateId })}
                onPicture={setViewPicture}
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
          </ViewBoundary>
        </div>
      }
    />
  );
}
