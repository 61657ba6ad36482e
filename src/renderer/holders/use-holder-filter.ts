// What narrows the view to some allocations: the search (Ctrl/Cmd+F: frames, files, an address),
// the flame graph's zoomed node, and a list of allocations picked elsewhere (a leak suspect of the
// Steps view). The choices live in the tab's store (state/tab-store.ts), so the filter holds while
// the user moves between "Who holds it", the Allocations table and the timeline, and across a
// switch to another tab and back; what they select (masks, the timeline's curve) is derived once
// per tab in the store, for every view that reads it.

import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { rowsBelowNode } from '@shared/holders/flame-tree';
import {
  compileSearch,
  matchedBytesCurve,
  matchingRows,
  type CompiledSearch,
} from '@shared/holders/search';
import type { PickedRows } from '../state/tab-store';
import { useTab, useTabStore } from '../state/tab-store-context';
import type { TimelineSearch } from '../timeline/search-curve';

export type { PickedRows } from '../state/tab-store';

export interface HolderFilter {
  query: string;
  setQuery: (query: string) => void;
  regex: boolean;
  setRegex: (regex: boolean) => void;
  /** The flame graph's zoomed node: steps "frameId:name" from the root; [] for none. */
  zoomPath: readonly string[];
  setZoomPath: (path: readonly string[]) => void;
  showFramework: boolean;
  setShowFramework: (show: boolean) => void;
  search: CompiledSearch;
  /** Allocations the search matches (null: no search). */
  searchMask: Uint8Array | null;
  /** Allocations below the zoomed node (null: none zoomed). */
  nodeMask: Uint8Array | null;
  /** Allocations picked by another view (a leak suspect's), with what they are; null: none. */
  picked: PickedRows | null;
  setPicked: (picked: PickedRows | null) => void;
  /** Allocations every part keeps (null: no filter). */
  mask: Uint8Array | null;
  /** What the filter keeps, in words ("matching “attn” and below the flame graph’s node"). */
  description: string;
  /** The kept allocations' bytes over time and their mask, for the timeline (null: no filter). */
  timelineSearch: TimelineSearch | null;
  /** Puts the search and the zoom away. */
  clear: () => void;
}

export function useHolderFilter(snapshot: AnalyzedSnapshot, device: AnalyzedDevice): HolderFilter {
  const store = useTabStore();
  const actions = store.getState();
  const query = useTab((state) => state.holderQuery);
  const regex = useTab((state) => state.holderRegex);
  const zoomPath = useTab((state) => state.flameZoomPath);
  const showFramework = useTab((state) => state.showFramework);
  const picked = useTab((state) => state.picked);
  // Frames and stacks are tested (thousands), then allocations looked up: fast on 1M.
  const search = store.derived('search', [query, regex], () =>
    compileSearch({ text: query, regex }),
  );
  const searchMask = store.derived('search mask', [snapshot, device, search], () =>
    search.kind === 'none' || search.kind === 'invalid'
      ? null
      : matchingRows(snapshot, device, search),
  );
  const nodeMask = store.derived('node mask', [snapshot, device, zoomPath, showFramework], () =>
    zoomPath.length === 0 ? null : rowsBelowNode(snapshot, device, [...zoomPath], showFramework),
  );
  const pickedMask = store.derived('picked mask', [device, picked], () => {
    if (picked === null) return null;
    const rows = new Uint8Array(device.allocations.count);
    for (const row of picked.rows) rows[row] = 1;
    return rows;
  });
  const mask = store.derived('mask', [searchMask, nodeMask, pickedMask], () =>
    bothMasks(bothMasks(searchMask, nodeMask), pickedMask),
  );
  const timelineSearch = store.derived('timeline search', [device, mask], () =>
    mask === null ? null : { curve: matchedBytesCurve(device, mask), mask },
  );
  const description = [
    query.trim() !== '' ? `matching “${query.trim()}”` : '',
    zoomPath.length > 0 ? 'below the flame graph’s node' : '',
    picked?.label ?? '',
  ]
    .filter((part) => part !== '')
    .join(' and ');
  return {
    query,
    setQuery: actions.setHolderQuery,
    regex,
    setRegex: actions.setHolderRegex,
    zoomPath,
    setZoomPath: actions.setFlameZoomPath,
    showFramework,
    setShowFramework: actions.setShowFramework,
    search,
    searchMask,
    nodeMask,
    picked,
    setPicked: actions.setPicked,
    mask,
    description,
    timelineSearch,
    clear: actions.clearFilter,
  };
}

/** Allocations both filters keep (either may be absent). */
function bothMasks(a: Uint8Array | null, b: Uint8Array | null): Uint8Array | null {
  if (a === null) return b;
  if (b === null) return a;
  const both = new Uint8Array(a.length);
  for (let row = 0; row < a.length; row++) both[row] = a[row]! & b[row]!;
  return both;
}
