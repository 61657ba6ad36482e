// `allocscope top --json` (schema allocscope.top/1): who holds the memory at one moment, grouped.
// Without a search, the groups hold every allocation alive at the moment, so their bytes (with
// those of the groups left out by --limit) add up to moment.active_bytes, the timeline's figure
// there; with a search (grep), only the matching allocations are grouped and matched_bytes is
// their total. docs/top-json.md describes every field.

import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { deviceLabel } from '../format/words';
import { activeBytesAt, aliveRowsAt } from '../holders/alive-rows';
import { DEFAULT_CATEGORY_RULES, type CategoryRules } from '../holders/category-rules';
import { groupRows, type GroupBy, type HolderGroup } from '../holders/group-by';
import { compileSearch, matchingRows } from '../holders/search';

export const TOP_SCHEMA = 'allocscope.top/1';

export interface TopRequest {
  moment: number;
  by: GroupBy;
  /** A regular expression over frames, or a hex address; null: every allocation. */
  grep: string | null;
  /** Groups listed (the rest are summed in omitted_groups); null: all. */
  limit: number | null;
  rules?: CategoryRules;
  /** Where the rules came from: "built-in" or the file's name. */
  rulesSource?: string;
}

export interface TopGroupJson {
  key: string;
  /** The key as a table shows it (a stack: its user frames and label, outermost first). */
  title: string;
  bytes: number;
  allocations: number;
  top_frames: string[];
}

export interface TopDocument {
  schema: typeof TOP_SCHEMA;
  file: string;
  device: number;
  device_label: string;
  moment: { event_index: number; active_bytes: number };
  by: GroupBy;
  grep: string | null;
  rules: string;
  matched_bytes: number;
  matched_allocations: number;
  groups: TopGroupJson[];
  omitted_groups: { count: number; bytes: number; allocations: number };
}

/** The groups of the moment (all of them), with the search applied. */
export function topGroups(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  request: Omit<TopRequest, 'limit'>,
): HolderGroup[] {
  let rows = aliveRowsAt(device, request.moment);
  if (request.grep !== null) {
    const search = compileSearch({ text: request.grep, regex: true });
    if (search.kind === 'invalid') throw new Error(search.message);
    const mask = matchingRows(snapshot, device, search);
    rows = rows.filter((row) => mask[row] === 1);
  }
  return groupRows(snapshot, device, rows, request.by, {
    rules: request.rules ?? DEFAULT_CATEGORY_RULES,
  });
}

/** Who holds the memory at one moment, grouped: what `top` prints and its document holds. */
export interface TopResult {
  file: string;
  device: number;
  moment: number;
  activeBytes: number;
  by: GroupBy;
  grep: string | null;
  rules: string;
  matchedBytes: number;
  matchedAllocations: number;
  /** The groups listed (the largest, up to the limit). */
  groups: HolderGroup[];
  /** The groups past the limit, summed. */
  omitted: { count: number; bytes: number; allocations: number };
}

export function topResultOf(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  request: TopRequest,
): TopResult {
  const groups = topGroups(snapshot, device, request);
  const shown = request.limit === null ? groups : groups.slice(0, request.limit);
  const rest = groups.slice(shown.length);
  const sum = (list: readonly HolderGroup[], field: 'bytes' | 'allocations'): number =>
    list.reduce((total, group) => total + group[field], 0);
  return {
    file: snapshot.fileName,
    device: device.device,
    moment: request.moment,
    activeBytes: activeBytesAt(device, request.moment),
    by: request.by,
    grep: request.grep,
    rules: request.rulesSource ?? 'built-in',
    matchedBytes: sum(groups, 'bytes'),
    matchedAllocations: sum(groups, 'allocations'),
    groups: shown,
    omitted: {
      count: rest.length,
      bytes: sum(rest, 'bytes'),
      allocations: sum(rest, 'allocations'),
    },
  };
}

export function topDocumentOf(result: TopResult): TopDocument {
  return {
    schema: TOP_SCHEMA,
    file: result.file,
    device: result.device,
    device_label: deviceLabel(result.device),
    moment: { event_index: result.moment, active_bytes: result.activeBytes },
    by: result.by,
    grep: result.grep,
    rules: result.rules,
    matched_bytes: result.matchedBytes,
    matched_allocations: result.matchedAllocations,
    groups: result.groups.map((group) => ({
      key: group.key,
      title: group.title,
      bytes: group.bytes,
      allocations: group.allocations,
      top_frames: group.topFrames,
    })),
    omitted_groups: { ...result.omitted },
  };
}
