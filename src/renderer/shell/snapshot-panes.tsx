// The panes of a snapshot page, on react-resizable-panels (dragging, the arrow keys, double-click
// for the default, remembering the layout), which replaced our own splitter: the timeline above;
// below it the lower views' bar and, side by side, the lower view and the selected allocation's
// panel. The panel takes the lower view's side at once: it never covers the timeline, its
// markers or the export buttons, and opening it never moves the chart under the pointer.
// "Full page" gives the lower view the whole page (the timeline stays mounted, hidden, so its
// zoom holds).

import { useLayoutEffect, useMemo, useRef, useState, type JSX, type ReactNode } from 'react';
import { useTabStore } from '../state/tab-store-context';
import type { TabStore } from '../state/tab-store';
import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import {
  CHART_MIN_PX,
  LOWER_MIN_PX,
  MAIN_MIN_PX,
  SIDE_MIN_PX,
  defaultLowerHeight,
  defaultSideWidth,
} from './pane-sizes';

export interface SnapshotPanesProps {
  timeline: ReactNode;
  lowerBar: ReactNode;
  lowerView: ReactNode;
  /** The selected allocation's panel, or null when none is selected. */
  panel: ReactNode | null;
  /** The lower view on the whole page (the timeline hidden). */
  fullPage: boolean;
}

const COLUMN_LAYOUT = 'allocscope.panes.column';
const LOWER_ROW_LAYOUT = 'allocscope.panes.lower-row';

/**
 * Where the library keeps the layouts: the tab's store (which remembers them across sessions), so
 * the panes have one home with the rest of the page's choices.
 */
function storeLayoutStorage(store: TabStore): Pick<Storage, 'getItem' | 'setItem'> {
  return {
    getItem: (key) => store.getState().paneLayouts[key] ?? null,
    setItem: (key, value) => store.getState().setPaneLayout(key, value),
  };
}

export function SnapshotPanes(props: SnapshotPanesProps): JSX.Element {
  const { panel, fullPage } = props;
  const store = useTabStore();
  const storage = useMemo(() => storeLayoutStorage(store), [store]);
  /**
   * Double-click on a divider gives the default sizes back (the library's own behaviour); this
   * forgets the remembered layout too, so that the defaults, which follow the window's size, apply
   * from then on (the library saves only what the user drags or keys). The key is the library's
   * (`useDefaultLayout`).
   */
  const forgetLayout = (id: string): void => storage.setItem(`react-resizable-panels:${id}`, '');
  const bodyRef = useRef<HTMLDivElement>(null);
  // The default sizes depend on the body's size: measured before the first paint, the panes
  // laid out once it is known (no flash of other sizes).
  const [body, setBody] = useState<{ width: number; height: number } | null>(null);
  useLayoutEffect(() => {
    const element = bodyRef.current;
    if (element === null) return;
    const { width, height } = element.getBoundingClientRect();
    setBody({ width, height });
  }, []);
  const columns = useDefaultLayout({
    id: COLUMN_LAYOUT,
    storage,
    onlySaveAfterUserInteractions: true,
  });
  const lowerRow = useDefaultLayout({
    id: LOWER_ROW_LAYOUT,
    storage,
    onlySaveAfterUserInteractions: true,
    panelIds: panel === null ? ['lower-view-pane'] : ['lower-view-pane', 'allocation-panel-pane'],
  });

  return (
    <div
      ref={bodyRef}
      className={fullPage ? 'snapshot-body snapshot-body-full-page' : 'snapshot-body'}
      data-testid="snapshot-body"
      data-panel={panel === null ? 'none' : 'docked'}
      data-full-page={fullPage}
    >
      {body !== null && (
        <Group
          orientation="vertical"
          id="snapshot-column"
          className="snapshot-column"
          defaultLayout={columns.defaultLayout}
          onLayoutChanged={columns.onLayoutChanged}
        >
          <Panel
            id="chart-pane"
            className="timeline-area"
            minSize={CHART_MIN_PX}
            aria-hidden={fullPage ? true : undefined}
          >
            {props.timeline}
          </Panel>
          <Separator
            id="separator-chart"
            className="pane-divider pane-divider-horizontal"
            aria-label="Divider between the chart and the views below"
            onDoubleClick={() => forgetLayout(COLUMN_LAYOUT)}
          />
          <Panel
            id="lower-pane"
            className="lower-pane"
            defaultSize={defaultLowerHeight(body.height)}
            minSize={LOWER_MIN_PX}
          >
            {props.lowerBar}
            <Group
              orientation="horizontal"
              id="lower-row"
              className="lower-row"
              defaultLayout={lowerRow.defaultLayout}
              onLayoutChanged={lowerRow.onLayoutChanged}
            >
              <Panel id="lower-view-pane" className="lower-view-pane" minSize={MAIN_MIN_PX}>
                {props.lowerView}
              </Panel>
              {panel !== null && (
                <>
                  <Separator
                    id="separator-side"
                    className="pane-divider pane-divider-vertical"
                    aria-label="Divider between the view and the allocation panel"
                    onDoubleClick={() =>
                      forgetLayout(`${LOWER_ROW_LAYOUT}:lower-view-pane:allocation-panel-pane`)
                    }
                  />
                  <Panel
                    id="allocation-panel-pane"
                    className="panel-area"
                    defaultSize={defaultSideWidth(body.width)}
                    minSize={SIDE_MIN_PX}
                  >
                    <aside className="panel-aside" aria-label="Selected allocation">
                      {panel}
                    </aside>
                  </Panel>
                </>
              )}
            </Group>
          </Panel>
        </Group>
      )}
    </div>
  );
}
