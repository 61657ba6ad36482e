// What "Who holds it" exports, as it is shown (the tab's store: the search, the flame graph's
// node, the grouping): its flame graph as SVG (and PNG), from the tree and layout the page draws
// (@shared/render/flame-svg), and its grouped table as CSV (formula-safe, by ../export/csv-format).

import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { defaultMoment } from '@shared/analyzed/moments';
import { deviceLabel } from '@shared/format/words';
import { activeBytesAt, aliveRowsAt } from '@shared/holders/alive-rows';
import { rowsBelowNode } from '@shared/holders/flame-tree';
import {
  GROUP_BY_NAMES,
  groupRows,
  type GroupBy,
  type HolderGroup,
} from '@shared/holders/group-by';
import { compileSearch, matchingRows } from '@shared/holders/search';
import { renderFlameSvg } from '@shared/render/flame-svg';
import { toCsv } from '../export/csv-format';
import type { ExportContext } from '../export/export-files';
import { deviceFileName } from '../export/file-names';
import type { DataExport, PictureExport } from '../export/lower-view-entry';
import type { TabViewState } from '../state/tab-store';
import { currentCategoryRules } from './category-rules-setting';

/** The view's choices that change what it shows (the defaults when the export has none). */
type HolderChoices = Pick<
  TabViewState,
  'holderQuery' | 'holderRegex' | 'flameZoomPath' | 'showFramework' | 'picked' | 'holdersGroupBy'
>;

const NO_CHOICES: HolderChoices = {
  holderQuery: '',
  holderRegex: false,
  flameZoomPath: [],
  showFramework: false,
  picked: null,
  holdersGroupBy: 'frame',
};

export interface HoldersShown {
  device: AnalyzedDevice;
  moment: number;
  /** Alive at the moment and kept by the search (what the flame graph draws). */
  searchedRows: Int32Array;
  /** Kept by every part of the filter (what the table groups). */
  tableRows: Int32Array;
  by: GroupBy;
  choices: HolderChoices;
}

/** What the view shows for these choices: the same filter as use-holder-filter.ts. */
export function holdersShown(
  snapshot: AnalyzedSnapshot,
  deviceIndex: number,
  moment: number | null,
  choices: HolderChoices = NO_CHOICES,
): HoldersShown {
  const device = snapshot.devices[deviceIndex]!;
  const at = moment ?? defaultMoment(device);
  const alive = aliveRowsAt(device, at);
  const search = compileSearch({ text: choices.holderQuery, regex: choices.holderRegex });
  const searchMask =
    search.kind === 'none' || search.kind === 'invalid'
      ? null
      : matchingRows(snapshot, device, search);
  const nodeMask =
    choices.flameZoomPath.length === 0
      ? null
      : rowsBelowNode(snapshot, device, choices.flameZoomPath, choices.showFramework);
  const picked = choices.picked === null ? null : new Set(choices.picked.rows);
  const searchedRows = searchMask === null ? alive : alive.filter((row) => searchMask[row] === 1);
  const tableRows = searchedRows.filter(
    (row) => (nodeMask === null || nodeMask[row] === 1) && (picked === null || picked.has(row)),
  );
  return {
    device,
    moment: at,
    searchedRows,
    tableRows,
    by: choices.holdersGroupBy,
    choices,
  };
}

function shownOf(context: ExportContext): HoldersShown {
  return holdersShown(context.snapshot, context.deviceIndex, context.moment, context.tab);
}

/** The flame graph at the moment, searched and zoomed as shown. */
export const FLAME_PICTURE: PictureExport = {
  name: 'flame',
  words: 'the flame graph',
  element: '[data-testid="flame-graph"]',
  svg: (context) => {
    const shown = shownOf(context);
    const { width, height } = context.chartSize;
    return Promise.resolve(
      renderFlameSvg(context.snapshot, context.deviceIndex, {
        width: Math.max(480, Math.round(width)),
        height: Math.max(320, Math.round(height)),
        moment: shown.moment,
        theme: context.theme,
        showFramework: shown.choices.showFramework,
        rows: shown.searchedRows,
        zoomPath: shown.choices.flameZoomPath,
      }),
    );
  },
};

/** The grouped table's records: one line per group, largest first, exact bytes and the share. */
export function holderGroupsCsv(
  groups: readonly HolderGroup[],
  by: GroupBy,
  activeBytes: number,
): string {
  return toCsv(
    [by, 'bytes', 'share_of_active_percent', 'allocations', 'top_frames'],
    groups.map((group) => [
      group.title,
      group.bytes,
      activeBytes > 0 ? Math.round((10000 * group.bytes) / activeBytes) / 100 : null,
      group.allocations,
      group.topFrames.join(' | '),
    ]),
  );
}

/** The table of groups as shown (its grouping, the search, the node). */
export const HOLDER_GROUPS_CSV: DataExport = {
  title: (context) => {
    const by = context.tab?.holdersGroupBy ?? NO_CHOICES.holdersGroupBy;
    const device = context.snapshot.devices[context.deviceIndex]!;
    return `Export the memory of ${deviceLabel(device.device)} alive at the moment grouped by ${GROUP_BY_NAMES[by]} as CSV (as the table shows it)`;
  },
  fileName: (context) => {
    const shown = shownOf(context);
    const at = shown.moment < 0 ? 'before-trace' : `after-event-${shown.moment}`;
    return deviceFileName(
      context.snapshot.fileName,
      shown.device.device,
      `holders-by-${shown.by}.${at}.csv`,
    );
  },
  data: (context) => {
    const shown = shownOf(context);
    const groups = groupRows(context.snapshot, shown.device, shown.tableRows, shown.by, {
      rules: currentCategoryRules(),
    });
    return Promise.resolve(
      holderGroupsCsv(groups, shown.by, activeBytesAt(shown.device, shown.moment)),
    );
  },
};
