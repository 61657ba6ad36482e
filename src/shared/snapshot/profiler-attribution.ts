// Who made each memory event of a profiler trace: the spans on its thread that hold it. Its op is
// the innermost `cpu_op` span holding its time, its Python stack the `python_function` spans
// holding it, innermost first; together they are its stack (the op as the innermost frame, a frame
// without a file, then the Python frames). One sweep per thread over the events and the spans in
// time order, with a stack of the spans open: O((events + spans) log) for the sorts, O(depth)
// per event, and nothing per event but two numbers.

import { orderByKeyThen } from './event-order';
import { NO_STACK, NO_STRING } from './model';
import { pythonFrameOf } from './profiler-python-frame';
import type { MemoryEventColumns, ProfilerTraceEvents, SpanColumns } from './profiler-trace-reader';
import type { StackInterner } from './stack-interner';

/**
 * The most frames a stack keeps (the innermost ones: the op and the Python frames nearest it).
 * Real ones are tens deep (the recorded traces: 16 Python frames); a trace of a million nested
 * spans would otherwise make each memory event cost a million frames of work and of memory.
 */
export const MAX_STACK_FRAMES = 128;
/**
 * The most open spans looked at for one memory event: spans of one thread nest, so the ones
 * holding it are on top; where a trace's do not, the spans below are not all searched.
 */
const MAX_OPEN_SPANS_SEARCHED = 1024;

export interface MemoryAttribution {
  /** Per memory event (file order): its stack id, NO_STACK when no span holds it. */
  stackId: Int32Array;
  /** Per memory event: its op's name as an index into `strings`, NO_STRING when none. */
  opNameId: Int32Array;
  /** Memory events whose stack was cut to its MAX_STACK_FRAMES innermost frames. */
  cutStacks: number;
}

export function attributeMemoryEvents(
  events: ProfilerTraceEvents,
  stacks: StackInterner,
  internString: (text: string) => number,
): MemoryAttribution {
  const { memory, ops, python, names } = events;
  const stackId = new Int32Array(memory.count).fill(NO_STACK);
  const opNameId = new Int32Array(memory.count).fill(NO_STRING);
  const memoryOrder = memoryByThreadAndTime(memory);
  const opOrder = spansByThreadAndStart(ops);
  const pythonOrder = spansByThreadAndStart(python);
  const opSweep = new SpanSweep(ops, opOrder);
  const pythonSweep = new SpanSweep(python, pythonOrder);
  // Frames and op strings per event name, made once each.
  const opFrame = new Int32Array(names.length).fill(-1);
  const opString = new Int32Array(names.length).fill(-1);
  const pythonFrame = new Int32Array(names.length).fill(-1);
  const frameOfOp = (nameId: number): number => {
    if (opFrame[nameId]! < 0)
      opFrame[nameId] = stacks.frameIdOf({ filename: '', name: names[nameId]!, line: -1 });
    return opFrame[nameId]!;
  };
  const frameOfPython = (nameId: number): number => {
    if (pythonFrame[nameId]! < 0)
      pythonFrame[nameId] = stacks.frameIdOf({ ...pythonFrameOf(names[nameId]!) });
    return pythonFrame[nameId]!;
  };
  // Consecutive events under the same innermost spans share a stack.
  let lastOp = -2;
  let lastPython = -2;
  let lastThread = -1;
  let lastStack = NO_STACK;
  let cutStacks = 0;
  for (const event of memoryOrder) {
    const thread = memory.thread[event]!;
    const time = memory.ts[event]!;
    const op = opSweep.innermostAt(thread, time);
    const top = pythonSweep.innermostAt(thread, time);
    if (op >= 0) {
      const nameId = ops.nameId[op]!;
      if (opString[nameId]! < 0) opString[nameId] = internString(names[nameId]!);
      opNameId[event] = opString[nameId]!;
    }
    if (thread === lastThread && op === lastOp && top === lastPython) {
      stackId[event] = lastStack;
      if (pythonSweep.cut) cutStacks++;
      continue;
    }
    const pythonSpans = pythonSweep.holding(time, MAX_STACK_FRAMES - (op >= 0 ? 1 : 0));
    if (pythonSweep.cut) cutStacks++;
    const count = (op >= 0 ? 1 : 0) + pythonSpans.length;
    let stack = NO_STACK;
    if (count > 0) {
      const ids = stacks.frameIdScratch(count);
      let at = 0;
      if (op >= 0) ids[at++] = frameOfOp(ops.nameId[op]!);
      for (const span of pythonSpans) ids[at++] = frameOfPython(python.nameId[span]!);
      stack = stacks.internFrameIds(ids, count);
    }
    stackId[event] = stack;
    lastThread = thread;
    lastOp = op;
    lastPython = top;
    lastStack = stack;
  }
  return { stackId, opNameId, cutStacks };
}

/**
 * The spans of one kind open at a time on a thread, walked forward in (thread, time) order: the
 * spans that start by then are pushed, those that ended are popped.
 */
class SpanSweep {
  /** Whether the last holding() left out spans past its limit. */
  cut = false;
  private next = 0;
  private thread = -1;
  private readonly open: number[] = [];

  constructor(
    private readonly spans: SpanColumns,
    private readonly order: Uint32Array,
  ) {}

  /** The innermost span of `thread` holding `time` (-1: none); calls come in (thread, time) order. */
  innermostAt(thread: number, time: number): number {
    const { spans, order, open } = this;
    if (thread !== this.thread) {
      this.thread = thread;
      open.length = 0;
      while (this.next < order.length && spans.thread[order[this.next]!]! < thread) this.next++;
    }
    while (this.next < order.length) {
      const span = order[this.next]!;
      if (spans.thread[span] !== thread || spans.startUs[span]! > time) break;
      // Spans that ended before this one starts are closed: they hold nothing from here on.
      while (open.length > 0 && spans.endUs[open.at(-1)!]! < spans.startUs[span]!) open.pop();
      open.push(span);
      this.next++;
    }
    while (open.length > 0 && spans.endUs[open.at(-1)!]! < time) open.pop();
    // Spans of one thread nest; where a trace's do not, the innermost that holds the time counts.
    const lowest = Math.max(0, open.length - MAX_OPEN_SPANS_SEARCHED);
    for (let i = open.length - 1; i >= lowest; i--)
      if (spans.endUs[open[i]!]! >= time) return open[i]!;
    return -1;
  }

  /** The open spans holding `time` (after innermostAt for it), innermost first, `limit` at most. */
  holding(time: number, limit: number): number[] {
    const { spans, open } = this;
    const held: number[] = [];
    const lowest = Math.max(0, open.length - MAX_OPEN_SPANS_SEARCHED);
    let i = open.length - 1;
    for (; i >= lowest && held.length < limit; i--)
      if (spans.endUs[open[i]!]! >= time) held.push(open[i]!);
    // Cut: spans were left below, unlooked at (some may have ended: counted as cut all the same).
    this.cut = i >= 0;
    return held;
  }
}

/** Memory events by thread, then time, then file order. */
function memoryByThreadAndTime(memory: MemoryEventColumns): Uint32Array {
  const { ts } = memory;
  return orderByKeyThen(memory.count, memory.thread, (a, b) => ts[a]! - ts[b]! || a - b);
}

/** Spans by thread, then start, outer (longer) before inner on a tie, then file order. */
function spansByThreadAndStart(spans: SpanColumns): Uint32Array {
  const { startUs, endUs } = spans;
  return orderByKeyThen(
    spans.count,
    spans.thread,
    (a, b) => startUs[a]! - startUs[b]! || endUs[b]! - endUs[a]! || a - b,
  );
}
