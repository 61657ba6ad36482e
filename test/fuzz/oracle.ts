// The fuzz oracle: runs one input through the path the CLI and the web worker take (decodeSnapshot
// fed as an async iterable of chunks, then the analysis, the view, the summary and report
// documents and their text forms) and says what is wrong with the outcome, if anything:
//
// - it opens, or it is refused with classifyDecodeError(e).kind === 'unreadable'; anything else
//   is an internal error (a defect, with its stack);
// - the verdict is the same whatever the chunk size (1 B for small inputs, 7 B, 64 KiB, 1 MiB):
//   the same refusal message, or the same model;
// - the documents validate against their schemas and hold no NaN, no infinity and no negative
//   number outside the fields that are signed by definition;
// - the text outputs (summary, report, segments, top) hold no control character but newline and
//   tab (C0, DEL, C1: they would drive the user's terminal);
// - each decode, the pipeline and the labels/top/holders step take at most `timeMs`, and grow the
//   process's peak RSS by at most `memoryBytes`; a small input is never refused for want of
//   memory;
// - a decode in parts (`--jobs N`, the page's `?jobs=N`: docs/parallel-decode.md), played on one
//   thread, gives the serial decoder's model or gives up (the product then decodes on one
//   thread): never another model, never a model of a file the serial decoder refuses, and within
//   the same time and memory limits.

import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { analyzeSnapshot } from '../../src/shared/analysis/snapshot-analysis';
import { buildReportDocument, reportDocumentSchema } from '../../src/shared/report/report-document';
import { summaryDocumentOf, summaryDocumentSchema } from '../../src/shared/report/summary-report';
import { decodeSnapshot } from '../../src/shared/snapshot/decode-snapshot';
import { decodeInParts } from '../../src/shared/snapshot/decode-in-parts';
import { classifyDecodeError } from '../../src/shared/snapshot/describe-decode-error';
import type { SnapshotModel } from '../../src/shared/snapshot/model';
import { createAllocatorStateIndex } from '../../src/shared/state/allocator-state';
import {
  figuresByGroup,
  figuresOfState,
  smallHoleThreshold,
} from '../../src/shared/state/memory-figures';
import {
  buildAnalyzedSnapshot,
  transferablesOf,
} from '../../src/shared/analyzed/analyzed-snapshot';
import { renderSegmentsSvg } from '../../src/shared/render/segments-svg';
import { renderTimelineSvg } from '../../src/shared/render/timeline-svg';
import { formatReportText } from '../../src/cli/format-report-text';
import { formatDeviceSegments, formatFileHeader } from '../../src/cli/format-segments-text';
import { formatSummaryText } from '../../src/cli/format-summary-text';
import { joinLines } from '../../src/cli/text-lines';
import { snapshotFiguresOf } from '../../src/shared/analyzed/device-figures';
import { allocationDetails } from '../../src/shared/analyzed/allocation-details';
import { defaultDeviceIndex, defaultMoment } from '../../src/shared/analyzed/moments';
import type { AnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import { stackLabelOfStack } from '../../src/shared/analysis/user-frame';
import { aliveRowsAt } from '../../src/shared/holders/alive-rows';
import { foldedStacks } from '../../src/shared/holders/folded-stacks';
import { GROUP_BYS } from '../../src/shared/holders/group-by';
import { renderFlameSvg } from '../../src/shared/render/flame-svg';
import { topDocumentOf, topResultOf } from '../../src/shared/report/top-document';
import { formatTopText } from '../../src/cli/run-top';
import { Prng } from './prng';

const KiB = 1024;
const MiB = 1024 * KiB;

export interface OracleLimits {
  /** Chunk sizes to decode with; 1 is skipped for inputs larger than oneByteChunkMaxBytes. */
  chunkSizes: readonly number[];
  oneByteChunkMaxBytes: number;
  /** A decode (or the pipeline after it) taking more CPU time than this is a defect... */
  timeMs: number;
  /** ...plus this much per chunk fed. */
  perChunkMicros: number;
  /**
   * ...and the step that analyses every device and writes its documents, this much per device:
   * a file may hold up to 512 device lists, and each one is analysed, summarised and drawn
   * (about 4 ms each on an idle 2-core machine; twice that is allowed).
   */
  perDeviceMs: number;
  /**
   * gzip input: Node's DecompressionStream costs ~0.1-0.6 ms per chunk written to it, whatever the
   * chunk holds (a thread-pool round trip), so chunks under 4 KiB are fed only to inputs up to
   * this size, and each chunk is allowed gzipPerChunkMicros.
   */
  gzipSmallChunkMaxBytes: number;
  gzipPerChunkMicros: number;
  /** Growth of the peak RSS during one decode or the pipeline above this is a defect. */
  memoryBytes: number;
  /** Also decode through the generic path (fastTraceEntries: false) and compare. */
  compareGenericPath: boolean;
  /**
   * Also decode in 2 or 3 parts (by the input's length) with this and compare; null: not. The
   * product's decodeInParts; the oracle's own test gives it a wrong one.
   */
  partsDecoder: PartsDecoder | null;
}

/** A decode in `parts` parts: the model, or null where it gives up (decode on one thread). */
export type PartsDecoder = (bytes: Uint8Array, parts: number) => Promise<SnapshotModel | null>;

export const DEFAULT_LIMITS: OracleLimits = {
  chunkSizes: [1, 7, 64 * KiB, MiB],
  oneByteChunkMaxBytes: 64 * KiB,
  timeMs: 2000,
  // Measured: 5-5.5 µs of CPU per 7-byte chunk of a 3.7 MB file of small dicts (the pending
  // opcode bridged across each boundary), against 0.1 µs per byte in 64 KiB chunks.
  perChunkMicros: 8,
  perDeviceMs: 8,
  gzipSmallChunkMaxBytes: 16 * KiB,
  gzipPerChunkMicros: 1000,
  memoryBytes: 300 * MiB,
  compareGenericPath: true,
  partsDecoder: decodeInParts,
};

/** The step that runs the label functions, `top` and the holders (runHolders). */
const HOLDERS_STEP = 'labels, top, holders, details';

/** The chunk size whose model goes through the analysis and the documents. */
const REFERENCE_CHUNK = 64 * KiB;

export type DefectCheck =
  | 'internal-error'
  | 'verdict-depends-on-chunking'
  | 'generic-path-differs'
  | 'stdin-differs'
  | 'parts-differ'
  | 'schema'
  | 'negative-or-nan'
  | 'json'
  | 'svg'
  | 'control-characters'
  | 'wording'
  | 'code-loading-accepted'
  | 'slow'
  | 'memory'
  | 'crash'
  | 'hang';

export interface Defect {
  check: DefectCheck;
  /** One line: the error message, the bad field... */
  message: string;
  /** Stack, diff or figures. */
  detail: string;
}

export interface CaseOutcome {
  verdict: 'opened' | 'refused' | 'defect';
  /** The refusal message (or the first defect's message). */
  message: string | null;
  defects: Defect[];
  inputBytes: number;
  totalMs: number;
  /** Each step's name, CPU and wall time (ms) and growth of the peak RSS, for a replay to print. */
  steps: { name: string; ms: number; wallMs: number; rssGrowth: number }[];
  /** CPU time of the case's costliest step. */
  slowestMs: number;
  slowestStep: string;
  /** Largest growth of the process's peak RSS over one step (0 when the peak did not move). */
  rssGrowthBytes: number;
  /** The process's peak RSS after the case. */
  maxRssBytes: number;
}

export interface CaseExpectations {
  /** The input asks for Python code at an opcode boundary: it must be refused, saying so. */
  codeLoadingRefused?: boolean;
}

type RunVerdict =
  | { kind: 'opened'; model: SnapshotModel; fingerprint: string }
  | { kind: 'refused'; message: string }
  | { kind: 'bug'; message: string; report: string };

interface Step {
  name: string;
  /**
   * The process's CPU time (every thread: the inflater's and the collector's too), which is what
   * the limits judge: a shared machine's load stretches the wall time of a step, not its work.
   */
  ms: number;
  wallMs: number;
  rssGrowth: number;
  /** Chunks fed (each costs the async plumbing a little, whatever the decoder does). */
  chunks: number;
  /** Devices whose work the step does for each one (see OracleLimits.perDeviceMs). */
  devices: number;
}

// A full collection before each step of a large input, so that its RSS growth is its own and not
// the garbage of the step before.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const GC_BEFORE_STEPS_FROM_BYTES = 256 * KiB;

function maxRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}

/** The devices the analysis covers: those with a trace list and those with segments. */
function deviceCount(model: SnapshotModel): number {
  const devices = new Set(model.traces.map((trace) => trace.device));
  for (const device of model.segments.device) devices.add(device);
  return devices.size;
}

async function measured<T>(
  steps: Step[],
  name: string,
  run: () => Promise<T>,
  collect: boolean,
  chunks = 1,
  devices = 0,
): Promise<T> {
  if (collect) collectGarbage();
  const rssBefore = process.memoryUsage.rss();
  const peakBefore = maxRss();
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  try {
    return await run();
  } finally {
    const cpu = process.cpuUsage(cpuBefore);
    const wallMs = performance.now() - started;
    const peakAfter = maxRss();
    steps.push({
      name,
      ms: (cpu.user + cpu.system) / 1000,
      wallMs,
      rssGrowth: peakAfter > peakBefore ? peakAfter - rssBefore : 0,
      chunks,
      devices,
    });
  }
}

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

function classify(error: unknown): RunVerdict {
  const failure = classifyDecodeError(error);
  return failure.kind === 'unreadable'
    ? { kind: 'refused', message: failure.message }
    : { kind: 'bug', message: failure.message, report: failure.report };
}

async function decodeRun(
  bytes: Uint8Array,
  chunkSize: number,
  options: { totalBytes: boolean; fast: boolean },
): Promise<RunVerdict> {
  try {
    const model = await decodeSnapshot(chunked(bytes, chunkSize), {
      ...(options.totalBytes ? { totalBytes: bytes.length } : {}),
      fastTraceEntries: options.fast,
    });
    return { kind: 'opened', model, fingerprint: fingerprintModel(model) };
  } catch (error) {
    return classify(error);
  }
}

async function* irregularlyChunked(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  const rng = new Prng(bytes.length ^ ((bytes[bytes.length >> 1] ?? 0) * 65_537));
  for (let at = 0; at < bytes.length;) {
    const size = rng.logInt(4096);
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

async function decodeIrregular(bytes: Uint8Array): Promise<RunVerdict> {
  try {
    const model = await decodeSnapshot(irregularlyChunked(bytes), { totalBytes: bytes.length });
    return { kind: 'opened', model, fingerprint: fingerprintModel(model) };
  } catch (error) {
    return classify(error);
  }
}

/**
 * The input decoded in 2 or 3 parts (by its length, so one decode a case) with `decoder`; a
 * defect where it gives a model that is not the serial decoder's (`reference`). Giving up, by
 * null or by throwing, is the product's fallback to one thread, not a defect.
 */
async function compareParts(
  bytes: Uint8Array,
  reference: RunVerdict,
  decoder: PartsDecoder,
  steps: Step[],
  collect: boolean,
): Promise<Defect | null> {
  const parts = 2 + (bytes.length % 2);
  const name = `parts: ${parts} threads' decode, played on one`;
  const fingerprint = await measured(
    steps,
    name,
    async () => {
      try {
        const model = await decoder(bytes, parts);
        return model === null ? null : fingerprintModel(model);
      } catch {
        return null;
      }
    },
    collect,
  );
  if (fingerprint === null) return null;
  if (reference.kind === 'opened' && reference.fingerprint === fingerprint) return null;
  return {
    check: 'parts-differ',
    message: `${name}: opened (model ${fingerprint.slice(0, 12)}) | one thread: ${describeVerdict(reference)}`,
    detail: '',
  };
}

/** A stable digest of everything in the model (typed arrays by value, NaN and -0 kept apart). */
export function fingerprintModel(model: SnapshotModel): string {
  const text = JSON.stringify(model, (_key, value: unknown) => {
    if (typeof value === 'number') {
      if (Number.isNaN(value)) return 'NaN';
      if (!Number.isFinite(value)) return value > 0 ? 'Inf' : '-Inf';
      if (Object.is(value, -0)) return '-0';
      return value;
    }
    if (typeof value === 'bigint') return `${value}n`;
    if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
      return { [value.constructor.name]: Array.from(value as unknown as ArrayLike<number>) };
    }
    if (value instanceof Map) return { Map: [...value.entries()] };
    return value;
  });
  return createHash('sha1').update(text).digest('hex');
}

function describeVerdict(verdict: RunVerdict): string {
  switch (verdict.kind) {
    case 'opened':
      return `opened (model ${verdict.fingerprint.slice(0, 12)})`;
    case 'refused':
      return `refused: ${verdict.message}`;
    case 'bug':
      return `bug: ${verdict.message}`;
  }
}

function verdictKey(verdict: RunVerdict): string {
  return verdict.kind === 'opened'
    ? `opened ${verdict.fingerprint}`
    : `${verdict.kind} ${verdict.message}`;
}

// ---- the documents: no NaN, no infinity, no negative figure ----

/** Fields whose value is -1 for "none" / "before the first entry". */
// `device` -1 is pinned host memory (HOST_DEVICE).
const MINUS_ONE_ALLOWED = new Set(['peak_event_index', 'event', 'moments', 'stackId', 'device']);
/** Fields that are signed by definition (deltas) or raw values copied from the file. */
const SIGNED = new Set(['internalWasteBytes', 'stream', 'timeUs', 'line']);
/** Raw values of the file, not figures. */
const SKIPPED = new Set(['allocator_settings', 'allocatorSettings']);

export function badNumbers(value: unknown, path = '', key = '', found: string[] = []): string[] {
  if (found.length >= 5) return found;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) found.push(`${path} = ${value}`);
    else if (SIGNED.has(key)) return found;
    else if (MINUS_ONE_ALLOWED.has(key) ? value < -1 : value < 0) found.push(`${path} = ${value}`);
    return found;
  }
  if (typeof value === 'bigint') {
    found.push(`${path} = ${value}n (a bigint)`);
    return found;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => badNumbers(item, `${path}[${index}]`, key, found));
    return found;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [name, item] of Object.entries(value)) {
      if (SKIPPED.has(name)) continue;
      badNumbers(item, path === '' ? name : `${path}.${name}`, name, found);
    }
  }
  return found;
}

function firstZodIssue(error: {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid';
  return `${issue.path.map(String).join('.')}: ${issue.message}${error.issues.length > 1 ? ` (+${error.issues.length - 1} more)` : ''}`;
}

/** Words that leak from a library or from JS into a refusal meant for people. */
const RAW_WORDING =
  /Invalid input|received (?:array|bigint|number|object|string|boolean|undefined|null|NaN)\b|\[object \w+\]|found undefined/;

const NON_FINITE_ATTRIBUTE =
  /\b(?:x|y|x1|x2|y1|y2|cx|cy|r|width|height|d|points|transform|viewBox)="[^"]*(?:NaN|Infinity)[^"]*"/;

/** Everything the CLI and the page compute from a model; the documents are checked here. */
function runPipeline(
  model: SnapshotModel,
  inputBytes: number,
  defects: Defect[],
  texts: TextOutput[],
): AnalyzedSnapshot {
  const file = { fileName: 'case.pickle', fileBytes: inputBytes };
  // `allocscope summary` (JSON and text).
  const analysis = analyzeSnapshot(model);
  const figures = snapshotFiguresOf(model, analysis, { ...file, top: 10 });
  const summary = summaryDocumentOf(figures);
  texts.push({ name: 'summary text', text: formatSummaryText(figures, { exactBytes: true }) });
  // The page's worker and `allocscope report` / `segments`.
  const snapshot = buildAnalyzedSnapshot(model, file);
  const report = buildReportDocument(snapshot, {
    devices: snapshot.devices.map((_device, index) => index),
  });
  texts.push({
    name: 'report text',
    text: formatReportText(snapshot, report.devices, { exactBytes: true }),
  });
  const lines = formatFileHeader(snapshot);
  const pictures: string[] = [];
  snapshot.devices.forEach((device, deviceIndex) => {
    const index = createAllocatorStateIndex(device, snapshot.allocatorSettings);
    const threshold = smallHoleThreshold(device);
    const peak = Math.min(device.traceLength - 1, device.figures.active.peakEventIndex);
    const oom = device.ooms[0]?.eventIndex ?? null;
    // `allocscope segments` at the final state and at the peak.
    for (const moment of [device.traceLength - 1, peak]) {
      const state = index.stateAt(moment);
      const figures = figuresOfState(state, threshold);
      const groups = figuresByGroup(state, threshold);
      lines.push(
        ...formatDeviceSegments(snapshot, device, state, figures, groups, { exactBytes: true }),
      );
    }
    // `allocscope render`: the timeline, and the segments at the OOM or else the peak.
    pictures.push(
      renderTimelineSvg(snapshot, deviceIndex, { width: 800, height: 450, moment: peak }),
    );
    pictures.push(
      renderSegmentsSvg(snapshot, deviceIndex, index.stateAt(oom ?? peak), {
        box: { width: 800, height: 400, scale: 'detail' },
      }),
    );
  });
  // As `allocscope segments` joins them (each line escaped as one field).
  texts.push({ name: 'segments text', text: joinLines(lines) });
  for (const svg of pictures) {
    const bad = NON_FINITE_ATTRIBUTE.exec(svg);
    if (bad !== null) {
      defects.push({
        check: 'svg',
        message: `a picture has a non-finite coordinate: ${bad[0].slice(0, 120)}`,
        detail: '',
      });
      break;
    }
  }

  for (const [name, document, schema] of [
    ['summary', summary, summaryDocumentSchema],
    ['report', report, reportDocumentSchema],
  ] as const) {
    const bad = badNumbers(document);
    if (bad.length > 0) {
      defects.push({
        check: 'negative-or-nan',
        message: `${name} document: ${bad[0]}`,
        detail: bad.join('\n'),
      });
    }
    const parsed = schema.safeParse(document);
    if (!parsed.success) {
      defects.push({
        check: 'schema',
        message: `${name} document does not match its schema: ${firstZodIssue(parsed.error)}`,
        detail: firstZodIssue(parsed.error),
      });
    }
    try {
      JSON.stringify(document);
    } catch (error) {
      defects.push({
        check: 'json',
        message: `${name} document cannot be written as JSON: ${error instanceof Error ? error.message : String(error)}`,
        detail: error instanceof Error ? (error.stack ?? '') : '',
      });
    }
  }
  return snapshot;
}

/** A text output of the CLI, checked for control characters. */
interface TextOutput {
  name: string;
  text: string;
  /** Which variant (a grouping of `top`), for the defect's detail. */
  variant?: string;
}

/** Devices `top`, `holders` and labels are asked about: the CLI's default one, and the first few. */
const HOLDER_DEVICES = 3;
/** Rows whose details (user metadata parsed, annotations) are read, as the page's panel does. */
const DETAIL_ROWS = 1000;

/**
 * `allocscope top` at the default moment by every grouping (text and document), `top --grep`,
 * the folded stacks, the flame picture, the details of the rows alive there, and the label of
 * every stack: the paths the label functions and user_metadata take.
 */
function runHolders(snapshot: AnalyzedSnapshot, texts: TextOutput[]): void {
  const indexes = new Set([defaultDeviceIndex(snapshot.devices)]);
  for (let i = 0; i < Math.min(HOLDER_DEVICES, snapshot.devices.length); i++) indexes.add(i);
  for (const deviceIndex of indexes) {
    const device = snapshot.devices[deviceIndex];
    if (device === undefined) continue;
    const moment = defaultMoment(device);
    for (const by of GROUP_BYS) {
      const result = topResultOf(snapshot, device, { moment, by, grep: null, limit: 10 });
      texts.push({
        name: 'top text',
        variant: `--by ${by}`,
        text: formatTopText(result, { exactBytes: true, momentName: null }),
      });
      JSON.stringify(topDocumentOf(result));
    }
    topResultOf(snapshot, device, { moment, by: 'frame', grep: 'Backward|forward|<', limit: 10 });
    const rows = aliveRowsAt(device, moment);
    foldedStacks(snapshot, device, rows);
    renderFlameSvg(snapshot, deviceIndex, { width: 800, height: 450, moment });
    for (let i = 0; i < Math.min(rows.length, DETAIL_ROWS); i++) {
      allocationDetails(snapshot, device, rows[i]!);
    }
  }
  const stacks = snapshot.stacks.offsets.length - 1;
  for (let stackId = 0; stackId < stacks; stackId++) stackLabelOfStack(snapshot, stackId);
}

// C0 controls but tab and newline, DEL, C1 controls: what a terminal acts on instead of showing.
// Built from code points, since the lint refuses control characters written in a regex literal.
const CONTROL_CHARACTER = new RegExp(
  `[${String.fromCharCode(0)}-${String.fromCharCode(8)}${String.fromCharCode(0x0b)}-${String.fromCharCode(0x1f)}${String.fromCharCode(0x7f)}-${String.fromCharCode(0x9f)}]`,
);

/** One defect per kind of text that holds a control character. */
export function controlCharacterDefects(texts: readonly TextOutput[]): Defect[] {
  const defects: Defect[] = [];
  const reported = new Set<string>();
  for (const { name, text, variant } of texts) {
    if (reported.has(name)) continue;
    const found = CONTROL_CHARACTER.exec(text);
    if (found === null) continue;
    reported.add(name);
    const code = found[0].charCodeAt(0);
    const around = JSON.stringify(text.slice(Math.max(0, found.index - 30), found.index + 30));
    defects.push({
      check: 'control-characters',
      message: `${name} holds control character U+${code.toString(16).padStart(4, '0').toUpperCase()}`,
      detail: `${name}${variant === undefined ? '' : ` (${variant})`}, at character ${found.index}: ${around}`,
    });
  }
  return defects;
}

/** Runs one input through the oracle. */
export async function runCase(
  bytes: Uint8Array,
  expect: CaseExpectations = {},
  limits: OracleLimits = DEFAULT_LIMITS,
): Promise<CaseOutcome> {
  const started = performance.now();
  const steps: Step[] = [];
  const defects: Defect[] = [];
  const runs: { name: string; verdict: RunVerdict }[] = [];
  const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const sizes = limits.chunkSizes.filter(
    (size) =>
      (size > 1 || bytes.length <= limits.oneByteChunkMaxBytes) &&
      (!gzip || size >= 4 * KiB || bytes.length <= limits.gzipSmallChunkMaxBytes),
  );
  const perChunkMicros = gzip ? limits.gzipPerChunkMicros : limits.perChunkMicros;
  const collect = bytes.length >= GC_BEFORE_STEPS_FROM_BYTES;
  // The reference first: its model goes on to the pipeline.
  const ordered = [REFERENCE_CHUNK, ...sizes.filter((size) => size !== REFERENCE_CHUNK)];
  for (const size of ordered) {
    const name = `decode in ${size === 1 ? '1-byte' : size < KiB ? `${size}-byte` : `${size / KiB} KiB`} chunks`;
    const verdict = await measured(
      steps,
      name,
      () => decodeRun(bytes, size, { totalBytes: true, fast: true }),
      collect,
      Math.ceil(bytes.length / size),
    );
    runs.push({ name, verdict });
    // Only one model alive at a time: keep the fingerprint, let the model go.
    if (runs.length > 1 && verdict.kind === 'opened') (verdict as { model: unknown }).model = null;
  }
  // Irregular chunks (1 B to 4 KiB, the same for the same input), as a pipe or a browser stream
  // may deliver them: boundaries fall at places the fixed sizes miss.
  const irregularName = 'decode in irregular chunks';
  const irregular = await measured(
    steps,
    irregularName,
    () => decodeIrregular(bytes),
    collect,
    Math.ceil(bytes.length / 256),
  );
  if (irregular.kind === 'opened') (irregular as { model: unknown }).model = null;
  runs.push({ name: irregularName, verdict: irregular });
  // Standard input: no total size known up front (refusal messages may differ, not the outcome).
  const stdinName = 'decode without the total size (standard input)';
  const stdin = await measured(
    steps,
    stdinName,
    () => decodeRun(bytes, REFERENCE_CHUNK, { totalBytes: false, fast: true }),
    collect,
  );
  if (stdin.kind === 'opened') (stdin as { model: unknown }).model = null;
  runs.push({ name: stdinName, verdict: stdin });
  if (limits.compareGenericPath) {
    const name = 'decode through the generic path (fastTraceEntries: false)';
    const verdict = await measured(
      steps,
      name,
      () => decodeRun(bytes, REFERENCE_CHUNK, { totalBytes: true, fast: false }),
      collect,
    );
    if (verdict.kind === 'opened') (verdict as { model: unknown }).model = null;
    runs.push({ name, verdict });
  }

  const reference = runs[0]!.verdict;
  const bugs = new Set<string>();
  for (const run of runs) {
    if (run.verdict.kind === 'bug' && !bugs.has(run.verdict.message)) {
      bugs.add(run.verdict.message);
      defects.push({
        check: 'internal-error',
        message: `${run.verdict.message} (${run.name})`,
        detail: run.verdict.report,
      });
    }
  }
  const chunkRuns = runs.filter((run) => run.name.startsWith('decode in'));
  if (new Set(chunkRuns.map((run) => verdictKey(run.verdict))).size > 1) {
    defects.push({
      check: 'verdict-depends-on-chunking',
      message: chunkRuns
        .map((run) => `${run.name.replace('decode in ', '')}: ${describeVerdict(run.verdict)}`)
        .join(' | '),
      detail: chunkRuns.map((run) => `${run.name}: ${describeVerdict(run.verdict)}`).join('\n'),
    });
  }
  // The generic path is what the product takes for a trace entry cut by a chunk boundary, so it
  // must say exactly what the fast path says. Standard input (no total size) may word a refusal
  // differently (it cannot know how much is left), but must reach the same outcome.
  for (const other of runs.filter((run) => !run.name.startsWith('decode in'))) {
    if (other.verdict.kind === 'bug' || reference.kind === 'bug') continue;
    const generic = other.name.includes('generic');
    const differs = generic
      ? verdictKey(other.verdict) !== verdictKey(reference)
      : other.verdict.kind !== reference.kind ||
        (other.verdict.kind === 'opened' &&
          other.verdict.fingerprint !== (reference as { fingerprint: string }).fingerprint);
    if (differs) {
      defects.push({
        check: generic ? 'generic-path-differs' : 'stdin-differs',
        message: `${describeVerdict(reference)} | ${other.name}: ${describeVerdict(other.verdict)}`,
        detail: '',
      });
    }
  }

  if (limits.partsDecoder !== null) {
    const partsDefect = await compareParts(bytes, reference, limits.partsDecoder, steps, collect);
    if (partsDefect !== null) defects.push(partsDefect);
  }

  let verdict: CaseOutcome['verdict'] = reference.kind === 'opened' ? 'opened' : 'refused';
  let message: string | null = reference.kind === 'opened' ? null : reference.message;
  if (reference.kind === 'opened') {
    const texts: TextOutput[] = [];
    try {
      const snapshot = await measured(
        steps,
        'analysis, view, documents',
        async () => runPipeline(reference.model, bytes.length, defects, texts),
        collect,
        1,
        deviceCount(reference.model),
      );
      await measured(steps, HOLDERS_STEP, async () => runHolders(snapshot, texts), collect);
      // What the worker posts: the view, its typed arrays transferred (last: it detaches them).
      await measured(
        steps,
        'posting the view',
        async () => structuredClone(snapshot, { transfer: transferablesOf(snapshot) }),
        collect,
      );
    } catch (error) {
      const failure = classify(error);
      if (failure.kind === 'bug') {
        defects.push({
          check: 'internal-error',
          message: `${failure.message} (after decoding)`,
          detail: failure.report,
        });
      } else if (failure.kind === 'refused') {
        verdict = 'refused';
        message = failure.message;
      }
    }
    defects.push(...controlCharacterDefects(texts));
  }
  if (
    verdict === 'refused' &&
    message !== null &&
    /not enough memory/.test(message) &&
    bytes.length < 64 * MiB
  ) {
    defects.push({
      check: 'memory',
      message: `a ${bytes.length}-byte input is refused for want of memory: ${message}`,
      detail: '',
    });
  }
  if (verdict === 'refused' && message !== null && RAW_WORDING.test(message)) {
    defects.push({
      check: 'wording',
      message: `a refusal in a library's words, not ours: ${message}`,
      detail: '',
    });
  }
  if (
    expect.codeLoadingRefused === true &&
    !(verdict === 'refused' && /Python code/.test(message ?? ''))
  ) {
    defects.push({
      check: 'code-loading-accepted',
      message: `a code-loading opcode did not make it refuse as such: ${verdict === 'opened' ? 'opened' : message}`,
      detail: '',
    });
  }
  for (const step of steps) {
    // Tiny chunks of a large input cost the async plumbing ~1 µs each, not the decoder.
    const limit =
      limits.timeMs + (step.chunks * perChunkMicros) / 1000 + step.devices * limits.perDeviceMs;
    if (step.ms > limit) {
      defects.push({
        check: 'slow',
        message: `${step.name} took ${Math.round(step.ms)} ms of CPU (${Math.round(step.wallMs)} ms wall; limit ${Math.round(limit)} ms)`,
        detail: '',
      });
    }
    if (step.rssGrowth > limits.memoryBytes) {
      defects.push({
        check: 'memory',
        message: `${step.name} grew the peak RSS by ${Math.round(step.rssGrowth / MiB)} MiB (limit ${Math.round(limits.memoryBytes / MiB)} MiB)`,
        detail: '',
      });
    }
  }
  const slowest = steps.reduce((a, b) => (b.ms > a.ms ? b : a), { name: '', ms: 0 });
  if (defects.length > 0) {
    verdict = 'defect';
    message = defects[0]!.message;
  }
  return {
    verdict,
    message,
    defects,
    inputBytes: bytes.length,
    totalMs: performance.now() - started,
    steps: steps.map(({ name, ms, wallMs, rssGrowth }) => ({ name, ms, wallMs, rssGrowth })),
    slowestMs: slowest.ms,
    slowestStep: slowest.name,
    rssGrowthBytes: Math.max(0, ...steps.map((step) => step.rssGrowth)),
    maxRssBytes: maxRss(),
  };
}

/**
 * Like runCase, but a case whose only defects are time limits is run once more and keeps them
 * only if it is slow again (a busy shared machine is not a defect).
 */
export async function runCaseConfirmed(
  bytes: Uint8Array,
  expect: CaseExpectations = {},
  limits: OracleLimits = DEFAULT_LIMITS,
): Promise<CaseOutcome> {
  const first = await runCase(bytes, expect, limits);
  if (first.defects.length === 0 || first.defects.some((defect) => defect.check !== 'slow'))
    return first;
  return runCase(bytes, expect, limits);
}

const COMPARISONS = new Set<DefectCheck>([
  'verdict-depends-on-chunking',
  'generic-path-differs',
  'stdin-differs',
]);

function blankNumbers(text: string): string {
  return text
    .replace(/\(model [0-9a-f]+\)/g, '(model)')
    .replace(/0x[0-9a-f]+/gi, 'N')
    .replace(/\d[\d,.]*/g, 'N');
}

/**
 * What makes two defects the same: the check and the message with numbers and offsets blanked
 * (internal errors: and the top of the stack). Comparisons (chunk sizes, paths) are grouped by how
 * the verdicts differ: only in numbers (offsets), opened against refused, or in their messages.
 */
export function defectSignature(defect: Defect): string {
  if (defect.check === 'slow' || defect.check === 'memory') {
    // One kind per step: decoding (whatever the chunks), or what comes after it.
    const step = /^decode|refused for want/.test(defect.message)
      ? 'decoding'
      : defect.message.startsWith(HOLDERS_STEP)
        ? HOLDERS_STEP
        : 'analysis and documents';
    return `${defect.check}: ${step}`;
  }
  if (COMPARISONS.has(defect.check)) {
    const verdicts = defect.detail === '' ? defect.message.split(' | ') : defect.detail.split('\n');
    const texts = verdicts.map((line) => line.replace(/^[^:]*: /, ''));
    const kinds = new Set(texts.map((text) => text.split(':')[0]));
    const how =
      kinds.has('opened') && kinds.size > 1
        ? 'opened vs refused'
        : new Set(texts.map(blankNumbers)).size === 1
          ? 'same message but for numbers (offsets)'
          : 'different messages';
    const about = texts.find((text) => !text.startsWith('opened')) ?? '';
    const words = blankNumbers(about)
      .split(' ')
      .slice(0, how.startsWith('same') ? 4 : 8)
      .join(' ');
    return `${defect.check}: ${how}: ${words}`;
  }
  const stackTop =
    defect.check === 'internal-error'
      ? (defect.detail
          .split('\n')
          .find((line) => line.trim().startsWith('at '))
          ?.trim() ?? '')
      : '';
  const message = blankNumbers(defect.message);
  return `${defect.check}: ${message}${stackTop === '' ? '' : ` ${stackTop.replace(/:\d+:\d+\)?$/, '')}`}`;
}
