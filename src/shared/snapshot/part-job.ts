// What every thread of a parallel decode does, whatever runs it (issue 25; docs/parallel-decode.md):
// the CLI's worker threads (src/cli/decode-in-workers.ts) and the page's Web Workers
// (src/renderer/workers/decode-in-page-parts.ts) differ only in how they start a thread, read the
// file and post a message. Here: where a file is cut, which channels join the part threads, and a
// part thread's work (scan the part before its own, send the scan on, decode its own).

import { sourceOf, type ByteSource } from '../pickle/byte-source';
import {
  decodeScannedPart,
  scanPartAhead,
  type PartOutcome,
  type PartScan,
} from './decode-in-parts';
import { partShares } from './part-shares';
import { planTraceSplit } from './trace-split-plan';

const PROTO = 0x80;

/**
 * Where the file's parts start for `threads` threads (the spine's share first: partShares), or
 * null where it decodes on one: not a pickle of protocol 4 or 5 (gzip, HTML and JSON have no
 * FRAME opcodes to hop along), or too few trace entries to cut. `frames`: how a frame near each
 * cut is found (planTraceSplit's option: the page searches, its reads being dear).
 */
export function planPartStarts(
  input: Uint8Array | ByteSource,
  threads: number,
  frames: 'index' | 'search' = 'index',
): number[] | null {
  if (threads < 2) return null;
  const source = sourceOf(input);
  const head = source.read(0, 2);
  if (head[0] !== PROTO || head[1] === undefined || head[1] < 4) return null;
  const split = planTraceSplit(source, threads, { fractions: partShares(threads), frames });
  if (!('plan' in split) || split.plan.starts.length < 2) return null;
  return split.plan.starts;
}

/** The channels of part thread `part` (>= 1): its scan goes to each later one, theirs come in. */
export interface PartPorts<Port> {
  /** Where it sends its scan (of the part before its own): one port per later part thread. */
  toLater: Port[];
  /** Where the scans of the parts before the one it scans come from: one per earlier thread. */
  fromEarlier: Port[];
}

/**
 * The ports of each part thread (index 0: part 1) for `partCount` parts: a channel from each
 * part thread to each later one, not through the spine, which is busy decoding the first part.
 */
export function partPorts<Port>(
  partCount: number,
  makeChannel: () => { port1: Port; port2: Port },
): PartPorts<Port>[] {
  const ports: PartPorts<Port>[] = [];
  for (let part = 1; part < partCount; part++) ports.push({ toLater: [], fromEarlier: [] });
  for (let later = 2; later < partCount; later++) {
    for (let earlier = 1; earlier < later; earlier++) {
      const channel = makeChannel();
      ports[earlier - 1]!.toLater.push(channel.port1);
      ports[later - 1]!.fromEarlier.push(channel.port2);
    }
  }
  return ports;
}

/**
 * Part thread `part`'s work: it scans the memo of part `part - 1`, sends the scan on (`sendScan`,
 * to every later thread, null when it could not scan), then, given the scans of the parts before
 * that one (`earlier`, in order), decodes its own part. Null: anything was not as planned (a scan
 * failed, the file could not be read); the file then decodes on one thread.
 */
export async function runPartJob(
  bytes: ByteSource,
  starts: readonly number[],
  part: number,
  sendScan: (scan: PartScan | null) => void,
  earlier: readonly Promise<PartScan | null>[],
): Promise<PartOutcome | null> {
  let own: PartScan | null;
  try {
    own = await scanPartAhead(bytes, starts, part - 1);
  } catch {
    own = null;
  }
  sendScan(own);
  const scans = [...(await Promise.all(earlier)), own];
  if (scans.some((scan) => scan === null)) return null;
  try {
    return await decodeScannedPart(bytes, starts, part, scans as PartScan[]);
  } catch {
    return null;
  }
}
