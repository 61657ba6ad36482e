// How the caching allocator sizes a block for a request (c10/cuda/CUDACachingAllocator.cpp):
// the trace records only requested bytes, so blocks of allocations that are gone by the end get
// the size the allocator would have given them. With the split rule below this reproduces the
// recorded size of every live block of the 12 real snapshots (test/unit/block-rounding-real.test.ts).

import type { AllocatorSettings } from '../snapshot/model';

/** kMinBlockSize: every block is a multiple of 512 bytes. */
export const MIN_BLOCK_BYTES = 512;
/** kSmallSize: requests up to 1 MiB come from the small pool. */
export const SMALL_REQUEST_LIMIT_BYTES = 1024 * 1024;

/** round_size(): 512-byte multiples, or power-of-two divisions when roundup_power2_divisions asks. */
export function roundedRequestBytes(
  requestedBytes: number,
  settings: AllocatorSettings | null,
): number {
  if (requestedBytes < MIN_BLOCK_BYTES) return MIN_BLOCK_BYTES;
  const divisions = powerTwoDivisionsFor(requestedBytes, settings);
  if (divisions > 1 && requestedBytes > MIN_BLOCK_BYTES * divisions) {
    return roundUpPowerTwoDivision(requestedBytes, divisions);
  }
  return Math.ceil(requestedBytes / MIN_BLOCK_BYTES) * MIN_BLOCK_BYTES;
}

/**
 * A free remainder smaller than this stays inside the allocated block (should_split()): 512 bytes
 * in the small pool and in expandable segments, more than 1 MiB in the large pool.
 */
export function keepsRemainder(
  remainderBytes: number,
  smallPool: boolean,
  expandable: boolean,
): boolean {
  if (remainderBytes <= 0) return false;
  if (smallPool || expandable) return remainderBytes < MIN_BLOCK_BYTES;
  return remainderBytes <= SMALL_REQUEST_LIMIT_BYTES;
}

/** `roundup_power2_divisions` is a dict {"1": n, "2": n, ..., "32768": n} by size in MiB (power of two). */
function powerTwoDivisionsFor(requestedBytes: number, settings: AllocatorSettings | null): number {
  const table = settings?.['roundup_power2_divisions'];
  if (typeof table === 'number') return table;
  if (table === null || typeof table !== 'object') return 0;
  const mib = requestedBytes / (1024 * 1024);
  const bucket = 2 ** Math.floor(Math.log2(Math.max(mib, 1)));
  const value = (table as Record<string, unknown>)[String(Math.min(bucket, 32768))];
  return typeof value === 'number' ? value : 0;
}

/** roundup_power2_next_division(): the next of `divisions` equal steps between two powers of two. */
function roundUpPowerTwoDivision(bytes: number, divisions: number): number {
  const floorPower = 2 ** Math.floor(Math.log2(bytes));
  if (floorPower === bytes) return bytes;
  const step = floorPower / 2 ** Math.floor(Math.log2(divisions));
  if (step < 1) return floorPower * 2;
  return Math.ceil(bytes / step) * step;
}
