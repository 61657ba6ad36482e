// The independent Python reconstruction of the allocator state (test/reference/state_reference.py):
// figures at chosen moments, computed the slow obvious way, for tests to compare with.

import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const STATE_REFERENCE_SCRIPT = resolve(import.meta.dirname, '../reference/state_reference.py');

export interface ReferenceGroup {
  pool: string;
  /** Raw cudaStream_t value. */
  stream: number;
  segment_type: 'large' | 'small';
  reserved: number;
  cached_free: number;
  largest_free: number;
  free_blocks: number;
}

export interface ReferenceState {
  event: number;
  reserved: number;
  active: number;
  block_bytes: number;
  cached_free: number;
  largest_free: number;
  free_blocks: number;
  groups: ReferenceGroup[];
  live: { address: number; requested: number; size: number; state: 'allocated' | 'pending' }[];
}

export function referenceStates(
  path: string,
  device: number,
  events: readonly number[],
): ReferenceState[] {
  const args = [STATE_REFERENCE_SCRIPT, path, '--device', String(device)];
  for (const event of events) args.push('--event', String(event));
  const output = execFileSync('python3', args, { maxBuffer: 1 << 28 });
  return (JSON.parse(output.toString('utf8')) as { states: ReferenceState[] }).states;
}
