// What the newest snapshots record about an allocation beyond its stack (AllocationDetails:
// user metadata, compile context, pool, category, annotations, internal metadata), as the rows
// the stack panel lists, and the `forward_frames` as their own stack. Pure, unit-tested.

import type { AllocationDetails } from '@shared/analyzed/allocation-details';
import { isUserFrame } from '@shared/analysis/user-frame';
import { poolName } from '@shared/format/words';

export interface DetailRow {
  /** Stable key and test id suffix: 'user-metadata', 'annotation-0', … */
  key: string;
  /** The field's name, in PyTorch's words where it has them. */
  label: string;
  /** The value; JSON pretty-printed (two-space indent) when the text parsed as an object or array. */
  text: string;
  /** 'json' and 'code' are shown preformatted; 'text' wraps. */
  format: 'text' | 'json' | 'code';
  /** For annotations: the label of the annotating call's stack. */
  note?: string;
  /** The parsed value behind a 'json' row (what the tooltip writes back compactly). */
  json?: unknown;
}

/** Text as written, or pretty JSON when it parsed to an object or an array. */
export function metadataText(text: string, parsed: unknown): { text: string; json: boolean } {
  if (parsed !== null && typeof parsed === 'object')
    return { text: JSON.stringify(parsed, null, 2), json: true };
  return { text, json: false };
}

/**
 * The rows of the details a file records for one allocation, in the order people look for them:
 * what it is (category), where it lives (pool), what the user attached (user metadata,
 * annotations), what compiled it (compile context), then PyTorch's internal metadata.
 * `stackLabelOf` words an annotation's stack (analysis/user-frame.ts stackLabel).
 */
export function detailRows(
  details: AllocationDetails,
  stackLabelOf: (stackId: number) => string,
): DetailRow[] {
  const rows: DetailRow[] = [];
  if (details.category !== null)
    rows.push({ key: 'category', label: 'category', text: details.category, format: 'text' });
  if (details.poolId !== null)
    rows.push({ key: 'pool', label: 'pool', text: poolName(details.poolId), format: 'text' });
  if (details.userMetadata !== null) {
    const { text, json } = metadataText(details.userMetadata, details.userMetadataParsed);
    rows.push({
      key: 'user-metadata',
      label: 'user metadata',
      text,
      format: json ? 'json' : 'text',
      ...(json ? { json: details.userMetadataParsed } : {}),
    });
  }
  details.annotations.forEach((annotation, i) => {
    const { text, json } = metadataText(annotation.text, annotation.parsed);
    rows.push({
      key: `annotation-${i}`,
      label: 'annotation',
      text,
      format: json ? 'json' : 'text',
      note: `event ${annotation.event} · ${stackLabelOf(annotation.stackId)}`,
      ...(json ? { json: annotation.parsed } : {}),
    });
  });
  if (details.compileContext !== null)
    rows.push({
      key: 'compile-context',
      label: 'compile context',
      text: details.compileContext,
      format: 'code',
    });
  if (details.internalMetadata !== null)
    rows.push({
      key: 'internal-metadata',
      label: 'internal metadata',
      text: details.internalMetadata,
      format: 'code',
    });
  return rows;
}

export interface ForwardFrameLine {
  text: string;
  /** The line names a file of the user's own code (isUserFrame). */
  isUser: boolean;
}

/**
 * `forward_frames` (strings, innermost first: where autograd created the tensor in the forward
 * pass), each marked when it names the user's own file, as Python tracebacks write it
 * (`File "model.py", line 62, in forward`) or as `model.py:62`.
 */
export function forwardFrameLines(details: AllocationDetails): ForwardFrameLine[] {
  return details.forwardFrames.map((text) => {
    const file = /File "([^"]+)"/.exec(text)?.[1] ?? /(\S+\.py):\d+/.exec(text)?.[1] ?? '';
    return { text, isUser: file !== '' && isUserFrame(file) };
  });
}

/** Characters of one detail in the timeline's tooltip: a glance, the panel has it whole. */
export const TOOLTIP_DETAIL_CHARS = 80;
/** Details in the tooltip, at most. */
export const TOOLTIP_DETAIL_ROWS = 4;

/**
 * The details as the timeline's tooltip shows them: the panel's rows (and where autograd created
 * the tensor, its innermost line of the user's code, else its innermost line), each on one line
 * (JSON compact, whitespace collapsed) cut to TOOLTIP_DETAIL_CHARS, at most TOOLTIP_DETAIL_ROWS.
 */
export function tooltipDetailRows(
  details: AllocationDetails,
  stackLabelOf: (stackId: number) => string,
): { key: string; label: string; text: string }[] {
  const oneLine = (text: string): string => {
    const flat = text.replace(/\s+/g, ' ').trim();
    return flat.length <= TOOLTIP_DETAIL_CHARS
      ? flat
      : `${flat.slice(0, TOOLTIP_DETAIL_CHARS - 1)}…`;
  };
  const rows = detailRows(details, stackLabelOf).map((row) => ({
    key: row.key,
    label: row.label,
    text: oneLine(row.format === 'json' ? JSON.stringify(row.json) : row.text),
  }));
  const forward = forwardFrameLines(details);
  const created = forward.find((line) => line.isUser) ?? forward[0];
  if (created !== undefined)
    rows.splice(Math.min(1, rows.length), 0, {
      key: 'forward',
      label: 'created in forward at',
      text: oneLine(created.text),
    });
  return rows.slice(0, TOOLTIP_DETAIL_ROWS);
}
