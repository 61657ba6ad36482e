// `--max-memory SIZE`: the memory one snapshot's decode may take, which decides how much a
// compressed snapshot may unpack to (src/shared/snapshot/unpacked-budget.ts). By default this
// machine's memory (its control group's limit where that is lower), and no more than a snapshot
// of the file's size could unpack to; --max-memory replaces both.

import { totalmem } from 'node:os';
import type { MemoryLimit } from '@shared/snapshot/unpacked-budget';

const UNITS: Readonly<Record<string, number>> = {
  '': 1,
  k: 2 ** 10,
  m: 2 ** 20,
  g: 2 ** 30,
  t: 2 ** 40,
};

/** Largest --max-memory taken: more than any machine has, small enough to stay exact. */
const MAX_SIZE_BYTES = 2 ** 50;

/**
 * A size as people write it: 8G, 512M, 1.5GiB, 8gb, 2000000000 (bytes). Units are binary, as
 * everywhere in allocscope. Null when it is not one.
 */
export function parseByteSize(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?$/i.exec(text.trim());
  if (match === null) return null;
  const bytes = Math.round(Number(match[1]) * UNITS[match[2]!.toLowerCase()]!);
  return bytes > 0 && bytes <= MAX_SIZE_BYTES ? bytes : null;
}

/** The option that allows `bytes`: whole GiB (whole MiB below one GiB), rounded up. */
export function maxMemoryOption(bytes: number): string {
  if (bytes >= 2 ** 30) return `--max-memory ${Math.ceil(bytes / 2 ** 30)}G`;
  return `--max-memory ${Math.max(1, Math.ceil(bytes / 2 ** 20))}M`;
}

/** The advice after a refusal: the option that lets the decode through, where that is known. */
function raiseTo(bytes: number, moreThan: boolean): string {
  return moreThan ? '--max-memory SIZE raises the limit' : `${maxMemoryOption(bytes)} allows it`;
}

/** The limit for one decode: `maxMemory` (--max-memory, in bytes) or this machine's memory. */
export function cliMemoryLimit(maxMemory: number | null): MemoryLimit {
  if (maxMemory !== null)
    return {
      bytes: maxMemory,
      source: 'set by --max-memory',
      chosen: true,
      raiseTo,
    };
  return {
    bytes: machineMemoryBytes(),
    source: "this machine's memory",
    chosen: false,
    raiseTo,
  };
}

/**
 * The memory this process may have: the machine's, or its control group's limit where lower.
 * Not what is free now: the verdict on a file should not change with what else runs.
 */
function machineMemoryBytes(): number {
  const total = totalmem();
  const constrained = process.constrainedMemory?.() ?? 0;
  return constrained > 0 && constrained < total ? constrained : total;
}
