// What the newest snapshots record about an allocation beyond its stack (AllocationDetails:
// user metadata, compile context, pool, category, annotations, internal metadata), as the rows
// the stack panel lists, and the `forward_frames` as their own stack. Pure, unit-tested.

import type { AllocationDetails } from '@shared/analyzed/allocation-details';
import { isUserFrame } from '@shared/analysis/user-frame';
import { shownJson, shownText } from '@shared/format/shown-text';
import { isDigitCode } from '@shared/format/word-chars';
import { poolName } from '@shared/format/words';

export interface DetailRow {
  /** Stable key and test id suffix: 'user-metadata', 'annotation-0', … */
  key: string;
  /** The field's name, in PyTorch's words where it has them. */
  label: string;
  /**
   * The value; JSON pretty-printed (two-space indent) when the text parsed as an object or array.
   * Bounded (format/shown-text.ts): the user's data may be nested thousands deep or megabytes long.
   */
  text: string;
  /** 'json' and 'code' are shown preformatted; 'text' wraps. */
  format: 'text' | 'json' | 'code';
  /** For annotations: the label of the annotating call's stack. */
  note?: string;
  /** The parsed value behind a 'json' row (what the tooltip writes back compactly). */
  json?: unknown;
}

/** Text as written, or pretty JSON when it parsed to an object or an array; bounded either way. */
export function metadataText(text: string, parsed: unknown): { text: string; json: boolean } {
  if (parsed !== null && typeof parsed === 'object') return { text: shownJson(parsed), json: true };
  return { text: shownText(text), json: false };
}

/** Why a text that looks like JSON is shown as written (analyzed/metadata-json.ts). */
function notReadAsJson(reason: string): string {
  return `not read as JSON: ${reason}`;
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
    rows.push({
      key: 'category',
      label: 'category',
      text: shownText(details.category),
      format: 'text',
    });
  if (details.poolId !== null)
    rows.push({
      key: 'pool',
      label: 'pool',
      text: shownText(poolName(details.poolId)),
      format: 'text',
    });
  if (details.userMetadata !== null) {
    const { text, json } = metadataText(details.userMetadata, details.userMetadataParsed);
    rows.push({
      key: 'user-metadata',
      label: 'user metadata',
      text,
      format: json ? 'json' : 'text',
      ...(json ? { json: details.userMetadataParsed } : {}),
      ...(details.userMetadataNotRead === null
        ? {}
        : { note: notReadAsJson(details.userMetadataNotRead) }),
    });
  }
  details.annotations.forEach((annotation, i) => {
    const { text, json } = metadataText(annotation.text, annotation.parsed);
    rows.push({
      key: `annotation-${i}`,
      label: 'annotation',
      text,
      format: json ? 'json' : 'text',
      note:
        `event ${annotation.event} · ${stackLabelOf(annotation.stackId)}` +
        (annotation.notRead === null ? '' : ` · ${notReadAsJson(annotation.notRead)}`),
      ...(json ? { json: annotation.parsed } : {}),
    });
  });
  if (details.compileContext !== null)
    rows.push({
      key: 'compile-context',
      label: 'compile context',
      text: shownText(details.compileContext),
      format: 'code',
    });
  if (details.internalMetadata !== null)
    rows.push({
      key: 'internal-metadata',
      label: 'internal metadata',
      text: shownText(details.internalMetadata),
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
    const file = forwardFrameFile(text);
    return { text: shownText(text), isUser: file !== '' && isUserFrame(file) };
  });
}

/** The file a forward_frames line names ('' for none): `File "…"`, else `….py:12`. */
export function forwardFrameFile(text: string): string {
  return quotedFileOf(text) ?? pythonFileOf(text) ?? '';
}

/**
 * The file of a traceback line, `File "([^"]+)"`: the first `File "` with text and a closing
 * quote after it. A scan: the expression looked for the closing quote again from every `File "`.
 */
function quotedFileOf(text: string): string | null {
  const OPEN = 'File "';
  for (let at = text.indexOf(OPEN); at >= 0; at = text.indexOf(OPEN, at + 1)) {
    const close = text.indexOf('"', at + OPEN.length);
    if (close < 0) return null;
    if (close > at + OPEN.length) return text.slice(at + OPEN.length, close);
  }
  return null;
}

/**
 * The file of a `model.py:62` line, `(\S+\.py):\d+`: in the first run of non-space characters
 * that holds a `.py:` and a digit after at least one character, the text up to its last such
 * `.py:`. The expression tried every position of a run, each time to its end: quadratic.
 */
function pythonFileOf(text: string): string | null {
  const isSpace = (i: number): boolean => WHITESPACE.test(text[i]!);
  const fits = (at: number): boolean => isDigitCode(text.charCodeAt(at + 4));
  for (let at = text.indexOf('.py:'); at >= 0; at = text.indexOf('.py:', at + 1)) {
    if (at === 0 || isSpace(at - 1) || !fits(at)) continue;
    let start = at - 1;
    while (start > 0 && !isSpace(start - 1)) start--;
    let end = at + 5;
    while (end < text.length && !isSpace(end)) end++;
    // The last `.py:` and digit of the run: `\S+` takes all it can.
    let last = at;
    for (let next = text.indexOf('.py:', at + 1); next >= 0 && next < end - 4;) {
      if (fits(next)) last = next;
      next = text.indexOf('.py:', next + 1);
    }
    return text.slice(start, last + 3);
  }
  return null;
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
  const oneLine = (text: string): string => firstLine(text, TOOLTIP_DETAIL_CHARS);
  const rows = detailRows(details, stackLabelOf).map((row) => ({
    key: row.key,
    label: row.label,
    text: oneLine(
      row.format === 'json' ? shownJson(row.json, 0, { maxChars: TOOLTIP_DETAIL_CHARS }) : row.text,
    ),
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

/**
 * `text` on one line (whitespace runs as one space, none at the ends), cut to `maxChars` with an
 * ellipsis: what `text.replace(/\s+/g, ' ').trim()` then a cut gives, reading only as far as the
 * cut (a value may be megabytes long, and the tooltip follows the mouse).
 */
export function firstLine(text: string, maxChars: number): string {
  let line = '';
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (WHITESPACE.test(c)) {
      space = line !== '';
      continue;
    }
    if (space) line += ' ';
    space = false;
    line += c;
    if (line.length > maxChars) return `${line.slice(0, maxChars - 1)}…`;
  }
  return line;
}

const WHITESPACE = /\s/;
