// export_memory_timeline's two files, streamed through the bounded JSON reader into columns of
// category changes (never a tree of the text). PyTorch (torch/profiler/_memory_profiler.py,
// MemoryProfileTimeline) writes either
//  - `.json`: `[times, sizes]`, `times` in microseconds and `sizes[i]` the cumulative bytes after
//    time i of `[0, PARAMETER, OPTIMIZER_STATE, INPUT, TEMPORARY, ACTIVATION, GRADIENT,
//    AUTOGRAD_DETAIL, unknown]` (its `_CATEGORY_TO_INDEX + 1`: the first level is never written);
//  - `.raw.json.gz` (or `.raw.json`): `[t_ns, action, bytes, category]` tuples, action 1
//    PREEXISTING (t_ns -1), 2 CREATE, 3 INCREMENT_VERSION (a pair: -bytes in the old version's
//    category, +bytes in the new one's, same time), 4 DESTROY (-bytes); category an index of the
//    same 8 (0 PARAMETER … 7 unknown).
// Both become the same thing here: in time order, one signed change of one category's bytes at a
// time, which ./memory-timeline-model.ts turns into allocations.

import { JsonReader, type JsonScalar, type JsonVisitor } from '../json/json-reader';
import type { DocumentWords } from '../limits/input-limits';
import { float64Column, int32Column } from './growable-column';
import { describeFound } from './raw-schema';
import { SnapshotFormatError } from './snapshot-error';

export const MEMORY_TIMELINE: DocumentWords = {
  name: "a PyTorch memory timeline (export_memory_timeline's .json or .raw.json.gz)",
  shortName: 'a memory timeline',
};

/** PyTorch's categories, in its `_CATEGORY_TO_INDEX` order (None is written "unknown"). */
export const TIMELINE_CATEGORIES = [
  'PARAMETER',
  'OPTIMIZER_STATE',
  'INPUT',
  'TEMPORARY',
  'ACTIVATION',
  'GRADIENT',
  'AUTOGRAD_DETAIL',
  'unknown',
] as const;

export type TimelineCategory = (typeof TIMELINE_CATEGORIES)[number];

const CATEGORY_COUNT = TIMELINE_CATEGORIES.length;
/** A `.json` row: PyTorch's unused first level, then the 8 categories'. */
const LEVELS_ROW = CATEGORY_COUNT + 1;
const RAW_TUPLE = 4;

/** Raw actions (`_ACTION_TO_INDEX`: Action's enum values). */
export const TimelineAction = { PREEXISTING: 1, CREATE: 2, INCREMENT_VERSION: 3, DESTROY: 4 };

/** The words every refusal of a timeline's content starts with. */
const NOT_A_TIMELINE = 'not a PyTorch memory timeline of a known shape';

/** Integers past 2**53 are no byte count; times in ns pass it (2026 is 1.8e18 ns): see below. */
const MAX_BYTES = 2 ** 53;

/** One file's changes of category bytes, in time order. */
export interface MemoryTimelineEvents {
  /** 'levels': the `.json` (cumulative levels per microsecond); 'raw': the tuples. */
  form: 'levels' | 'raw';
  count: number;
  /** Microseconds since the epoch (the trace's clock: baseTimeNanoseconds / 1000 + ts). */
  timeUs: Float64Array;
  /** Index into TIMELINE_CATEGORIES. */
  category: Int32Array;
  /** Signed: + memory created in the category, - memory destroyed (or moved out by a version). */
  deltaBytes: Float64Array;
  /**
   * Per change: 1 where the raw file says CREATE or PREEXISTING (a tensor's storage made: what
   * a trace's allocation is), 0 else (a DESTROY, a version's move, a `.json` level's change).
   */
  created: Uint8Array;
}

export async function readMemoryTimeline(
  chunks: AsyncIterable<Uint8Array>,
): Promise<MemoryTimelineEvents> {
  const consumer = new TimelineConsumer();
  for await (const chunk of chunks) consumer.reader.feed(chunk);
  consumer.reader.finish();
  return consumer.result();
}

class TimelineConsumer implements JsonVisitor {
  readonly reader = new JsonReader(this, { document: MEMORY_TIMELINE });
  private depth = 0;
  /** Index of the top-level item now open (its children's container count so far). */
  private topItem = -1;
  private innerItem = -1;
  /** Numbers of the container now being read (a `.json` row or a raw tuple). */
  private row: number[] = [];
  private form: 'levels' | 'raw' | null = null;
  /** `.json`'s times, and raw's first tuple until the second item tells the form. */
  private readonly first: number[] = [];
  private readonly times = float64Column();
  private readonly levels = float64Column();
  private levelRows = 0;
  private readonly rawT = float64Column();
  private readonly rawAction = int32Column();
  private readonly rawBytes = float64Column();
  private readonly rawCategory = int32Column();

  openObject(offset: number): void {
    throw refusal('a dict', this.where(), offset);
  }
  key(): void {}
  closeObject(): void {}

  openArray(offset: number): void {
    this.depth++;
    if (this.depth === 1) return;
    if (this.depth === 2) {
      this.topItem++;
      this.innerItem = -1;
      this.row = [];
      if (this.topItem === 1 && this.form === null) this.form = 'raw';
      if (this.topItem >= 2 && this.form === 'levels')
        throw refusal('a third item', this.where(), offset, '[times, sizes]');
      return;
    }
    if (this.depth === 3) {
      this.innerItem++;
      // A list inside the second item: `.json`'s sizes; inside the first, nothing knows it.
      if (
        this.topItem === 1 &&
        this.form === 'raw' &&
        this.innerItem === 0 &&
        this.rawBytes.length === 0
      )
        this.form = 'levels';
      if (this.topItem !== 1 || this.form !== 'levels')
        throw refusal('a list', this.where(), offset);
      this.row = [];
      return;
    }
    throw refusal('a list', this.where(), offset);
  }

  closeArray(offset: number): void {
    if (this.depth === 2) this.closeTopItem(offset);
    else if (this.depth === 3) this.closeLevelsRow(offset);
    this.depth--;
  }

  value(value: JsonScalar, offset: number): void {
    if (this.depth === 2) this.innerItem++;
    if (this.depth < 2) throw refusal(describeFound(value), this.where(), offset);
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw refusal(describeFound(value), this.where(), offset, 'a number');
    if (this.depth === 3) {
      this.row.push(value);
      return;
    }
    if (this.topItem === 0) this.first.push(value);
    else if (this.form === 'levels')
      throw refusal(describeFound(value), this.where(), offset, 'a list of the levels');
    else this.row.push(value);
  }

  private closeTopItem(offset: number): void {
    if (this.topItem === 0) return;
    // `[[], []]`: what PyTorch writes for a device it saw no memory of.
    if (this.topItem === 1 && this.first.length === 0 && this.row.length === 0) {
      this.form = 'levels';
      return;
    }
    if (this.topItem === 1 && this.form === 'raw' && this.rawBytes.length === 0) {
      // The second item was a tuple too: the first one was the raw file's first tuple.
      this.pushRaw(this.first, offset, 0);
      this.first.length = 0;
    }
    if (this.form === 'raw') this.pushRaw(this.row, offset, this.topItem);
  }

  private closeLevelsRow(offset: number): void {
    if (this.row.length !== LEVELS_ROW) {
      throw refusal(
        `${this.row.length} numbers`,
        this.where(),
        offset,
        `the ${LEVELS_ROW} of a sizes row (PyTorch's unused 0, then the ${CATEGORY_COUNT} categories' bytes)`,
      );
    }
    for (let c = 1; c < LEVELS_ROW; c++) {
      const bytes = this.row[c]!;
      if (!Number.isInteger(bytes) || bytes < 0 || bytes > MAX_BYTES) {
        throw refusal(`${describeFound(bytes)}`, `${this.where()}[${c}]`, offset, 'a byte count');
      }
      this.levels.push(bytes);
    }
    this.levelRows++;
  }

  private pushRaw(tuple: readonly number[], offset: number, index: number): void {
    const where = `[${index}]`;
    if (tuple.length !== RAW_TUPLE)
      throw refusal(
        `${tuple.length} numbers`,
        where,
        offset,
        'a (t_ns, action, bytes, category) tuple',
      );
    const [t, action, bytes, category] = tuple as [number, number, number, number];
    if (!Number.isInteger(action) || action < 1 || action > 4)
      throw refusal(
        `action ${describeFound(action)}`,
        where,
        offset,
        'an action 1..4 (PREEXISTING, CREATE, INCREMENT_VERSION, DESTROY)',
      );
    if (!Number.isInteger(category) || category < 0 || category >= CATEGORY_COUNT)
      throw refusal(
        `category ${describeFound(category)}`,
        where,
        offset,
        `a category 0..${CATEGORY_COUNT - 1}`,
      );
    if (!Number.isInteger(bytes) || Math.abs(bytes) > MAX_BYTES)
      throw refusal(`${describeFound(bytes)} bytes`, where, offset, 'a byte count');
    const grows = action === TimelineAction.PREEXISTING || action === TimelineAction.CREATE;
    if ((grows && bytes < 0) || (action === TimelineAction.DESTROY && bytes > 0))
      throw refusal(
        `${describeFound(bytes)} bytes`,
        where,
        offset,
        grows ? 'bytes >= 0 for a CREATE' : 'bytes <= 0 for a DESTROY',
      );
    // Times are integers of ns (read as the nearest double: within 256 ns in 2026, finer than
    // the µs the trace is matched in); -1 marks a PREEXISTING tensor.
    if (!Number.isInteger(t) || (t < 0 && !(t === -1 && action === TimelineAction.PREEXISTING)))
      throw refusal(
        `time ${describeFound(t)}`,
        where,
        offset,
        'a time in ns (-1 only for PREEXISTING)',
      );
    this.rawT.push(t);
    this.rawAction.push(action);
    this.rawBytes.push(bytes);
    this.rawCategory.push(category);
  }

  private where(): string {
    const path = ['', `[${this.topItem}]`, `[${this.topItem}][${this.innerItem}]`];
    return path[Math.min(this.depth, 2)] ?? '';
  }

  result(): MemoryTimelineEvents {
    if (this.form === 'levels') return this.levelsResult();
    if (this.form === null && this.topItem === 0 && this.first.length > 0) {
      // One tuple only.
      this.pushRaw(this.first, -1, 0);
    }
    if (this.form === null && this.rawBytes.length === 0)
      throw new SnapshotFormatError(`${NOT_A_TIMELINE}: it holds no memory events`);
    return this.rawResult();
  }

  private levelsResult(): MemoryTimelineEvents {
    const times = this.first;
    if (times.length !== this.levelRows) {
      throw new SnapshotFormatError(
        `${NOT_A_TIMELINE}: ${times.length} times but ${this.levelRows} sizes rows (export_memory_timeline writes one row per time)`,
      );
    }
    const levels = this.levels.values();
    const timeUs: number[] = [];
    const category: number[] = [];
    const deltaBytes: number[] = [];
    const before = new Float64Array(CATEGORY_COUNT);
    for (let i = 0; i < times.length; i++) {
      const t = times[i]!;
      if (i > 0 && t < times[i - 1]!)
        throw new SnapshotFormatError(
          `${NOT_A_TIMELINE}: its times go back at [0][${i}] (${describeFound(t)} after ${describeFound(times[i - 1])})`,
        );
      for (let c = 0; c < CATEGORY_COUNT; c++) {
        const delta = levels[i * CATEGORY_COUNT + c]! - before[c]!;
        before[c] = levels[i * CATEGORY_COUNT + c]!;
        if (delta === 0) continue;
        timeUs.push(t);
        category.push(c);
        deltaBytes.push(delta);
      }
    }
    if (times.length === 0) {
      throw new SnapshotFormatError(
        'an empty memory timeline: PyTorch recorded no memory on the device it was exported for (export_memory_timeline(path, device))',
      );
    }
    // Within one time, what shrinks first: the level after the time is the same, and no
    // category's allocations are split for memory that another's growth took.
    return changesInOrder('levels', timeUs, category, deltaBytes, new Uint8Array(timeUs.length));
  }

  private rawResult(): MemoryTimelineEvents {
    const count = this.rawT.length;
    const t = this.rawT.values();
    const action = this.rawAction.values();
    const bytes = this.rawBytes.values();
    const cat = this.rawCategory.values();
    // PREEXISTING tensors are placed where PyTorch's .json places them: at the first time.
    let firstNs = Infinity;
    for (let i = 0; i < count; i++) if (t[i]! >= 0 && t[i]! < firstNs) firstNs = t[i]!;
    if (firstNs === Infinity) firstNs = 0;
    const timeUs: number[] = [];
    const category: number[] = [];
    const deltaBytes: number[] = [];
    const created: number[] = [];
    let lastNs = -Infinity;
    for (let i = 0; i < count; i++) {
      const ns = t[i]! < 0 ? firstNs : t[i]!;
      if (ns < lastNs)
        throw new SnapshotFormatError(
          `${NOT_A_TIMELINE}: its times go back at [${i}] (${describeFound(t[i])} after ${describeFound(lastNs)})`,
        );
      lastNs = ns;
      // INCREMENT_VERSION moves a tensor's bytes from its old version's category to its new
      // one's: no memory is made, and within one category nothing changes at all.
      if (
        action[i] === TimelineAction.INCREMENT_VERSION &&
        action[i + 1] === TimelineAction.INCREMENT_VERSION &&
        t[i + 1] === t[i] &&
        bytes[i]! === -bytes[i + 1]! &&
        cat[i] === cat[i + 1]
      ) {
        i++;
        continue;
      }
      if (bytes[i] === 0) continue;
      timeUs.push(ns / 1000);
      category.push(cat[i]!);
      deltaBytes.push(bytes[i]!);
      created.push(action[i]! <= TimelineAction.CREATE ? 1 : 0);
    }
    return changesInOrder('raw', timeUs, category, deltaBytes, Uint8Array.from(created));
  }
}

/** The changes as columns; a `.json` time's shrinking levels before its growing ones. */
function changesInOrder(
  form: 'levels' | 'raw',
  timeUs: number[],
  category: number[],
  deltaBytes: number[],
  created: Uint8Array,
): MemoryTimelineEvents {
  const order = timeUs.map((_, i) => i);
  if (form === 'levels') {
    order.sort(
      (a, b) =>
        timeUs[a]! - timeUs[b]! || Number(deltaBytes[a]! > 0) - Number(deltaBytes[b]! > 0) || a - b,
    );
  }
  return {
    form,
    count: order.length,
    timeUs: Float64Array.from(order, (i) => timeUs[i]!),
    category: Int32Array.from(order, (i) => category[i]!),
    deltaBytes: Float64Array.from(order, (i) => deltaBytes[i]!),
    created: Uint8Array.from(order, (i) => created[i]!),
  };
}

function refusal(
  found: string,
  where: string,
  offset: number,
  expected?: string,
): SnapshotFormatError {
  const what =
    expected === undefined ? `${found} where none belongs` : `${found}; expected ${expected}`;
  return new SnapshotFormatError(
    `${NOT_A_TIMELINE}: ${where === '' ? 'the top level' : where} holds ${what}`,
    offset,
  );
}
