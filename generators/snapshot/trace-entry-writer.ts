// Second pass of the generator: writes each recorded event as a trace entry dict, with the keys
// in PyTorch's order (action, addr | device_free, size, stream, time_us, compile_context, frames),
// and stops after the number of events the first pass settled on.

import type { SimContext, TraceAction } from './caching-allocator-sim';
import { writeContextFrames } from './context-frames';
import { StopSimulation, type TraceRecorder } from './device-simulation';
import type { PickleWriter } from '../pickle/pickle-writer';

// A type alias (not an interface) so that it is assignable to a pickle dict.
export type Annotation = {
  stage: 'START' | 'END';
  name: string;
  device: number;
  time_us: number;
};

/** Only the newest annotations are kept, like a ring buffer. */
/** How many annotation marks a file keeps by default (the newest). */
export const MAX_ANNOTATIONS = 12;

export class TraceEntryWriter implements TraceRecorder {
  events = 0;
  /** Frames of every entry's stack, summed (the file's shape: frames per entry). */
  frames = 0;
  /** Entries whose frames list is a new list, not a memo reference to an earlier one. */
  newFrameLists = 0;
  readonly actions: Partial<Record<TraceAction, number>> = {};
  readonly annotations: Annotation[] = [];
  private oomDone = false;

  constructor(
    private readonly w: PickleWriter,
    private readonly device: number,
    private readonly stopAfter: number,
    private readonly oomAt: number,
    private readonly written: Map<number, number>,
    /** The annotations kept: the last this many (0: none). */
    private readonly maxAnnotations = MAX_ANNOTATIONS,
  ) {}

  record(
    action: TraceAction,
    addr: number,
    size: number,
    stream: number,
    ctx: SimContext,
    timeUs: number,
  ): void {
    const w = this.w;
    w.beginDict();
    w.setItem('action', action);
    w.setItem(action === 'oom' ? 'device_free' : 'addr', addr);
    w.setItem('size', size);
    w.setItem('stream', stream);
    w.setItem('time_us', timeUs);
    w.setItem('compile_context', 'N/A');
    w.key('frames');
    if (writeContextFrames(w, ctx, this.written) === 'new') this.newFrameLists++;
    this.frames += ctx?.stack.frames.length ?? 0;
    w.endDict();
    this.actions[action] = (this.actions[action] ?? 0) + 1;
    if (++this.events >= this.stopAfter) throw new StopSimulation();
  }

  oomNow(): boolean {
    if (this.oomDone || this.events !== this.oomAt) return false;
    this.oomDone = true;
    return true;
  }

  annotate(stage: 'START' | 'END', name: string, timeUs: number): void {
    this.annotations.push({ stage, name, device: this.device, time_us: timeUs });
    if (this.annotations.length > this.maxAnnotations) this.annotations.shift();
  }
}
