// What narrows the view to some allocations: the search (Ctrl/Cmd+F: frames, files, an address),
// the flame graph's zoomed node, and a list of allocations picked elsewhere (a leak suspect of the
// Steps view). Kept per device view, above the tabs, so the filter holds
// while the user moves between "Who holds it", the Allocations table and the timeline: each of
// them reads `mask` (the allocations kept) and the timeline draws `timelineSearch`.

import { useMemo, useState } from 'react';
import type { AnalyzedDevice, AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { rowsBelowNode } from '@shared/holders/flame-tree';
import {
  compileSearch,
  matchedBytesCurve,
  matchingRows,
  type CompiledSearch,
} from '@shared/holders/search';
import type { TimelineSearch } from '../timeline/search-curve';

export interface HolderFilter {
  query: string;
  setQuery: (query: string) => void;
  regex: boolean;
  setRegex: (regex: boolean) => void;
  /** The flame graph's zoomed node: steps "frameId:name" from the root; [] for none. */
  zoomPath: string[];
  setZoomPath: (path: string[]) => void;
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

export interface PickedRows {
  /** What they are, in words: "kept by nanogpt/train.py:88 train_step (Steps)". */
  label: string;
  rows: readonly number[];
}

export function useHolderFilter(view: AnalyzedSnapshot, device: AnalyzedDevice): HolderFilter {
  const [query, setQuery] = useState('');
  const [regex, setRegex] = useState(false);
  const [zoomPath, setZoomPath] = useState<string[]>([]);
  const [showFramework, setShowFramework] = useState(false);
  const [picked, setPicked] = useState<PickedRows | null>(null);
  // Frames and stacks are tested (thousands), then allocations looked up: fast on 1M.
  const search = useMemo(() => compileSearch({ text: query, regex }), [query, regex]);
  const searchMask = useMemo(
    () =>
      search.kind === 'none' || search.kind === 'invalid'
        ? null
        : matchingRows(view, device, search),
    [view, device, search],
  );
  const nodeMask = useMemo(
    () => (zoomPath.length === 0 ? null : rowsBelowNode(view, device, zoomPath, showFramework)),
    [view, device, zoomPath, showFramework],
  );
  const pickedMask = useMemo(() => {
    if (picked === null) return null;
    const rows = new Uint8Array(device.allocations.count);
    for (const row of picked.rows) rows[row] = 1;
    return rows;
  }, [device, picked]);
  const mask = useMemo(
    () => bothMasks(bothMasks(searchMask, nodeMask), pickedMask),
    [searchMask, nodeMask, pickedMask],
  );
  const description = [
    query.trim() !== '' ? `matching “${query.trim()}”` : '',
    zoomPath.length > 0 ? 'below the flame graph’s node' : '',
    picked?.label ?? '',
  ]
    .filter((part) => part !== '')
    .join(' and ');
  const timelineSearch = useMemo(
    () => (mask === null ? null : { curve: matchedBytesCurve(device, mask), mask }),
    [device, mask],
  );
  return {
    query,
    setQuery,
    regex,
    setRegex,
    zoomPath,
    setZoomPath,
    showFramework,
    setShowFramework,
    search,
    searchMask,
    nodeMask,
    picked,
    setPicked,
    mask,
    description,
    timelineSearch,
    clear: () => {
      setQuery('');
      setZoomPath([]);
      setPicked(null);
    },
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
