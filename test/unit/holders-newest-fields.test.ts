// Grouping by what the newest snapshots record (user metadata, compile context, forward_frames,
// pool, category): every allocation's key is what the generator planted on it.

import { describe, expect, it } from 'vitest';
import { dumpToBytes } from '../../generators/pickle/pickle-writer';
import { makeNewestSnapshot } from '../../generators/snapshot/newest-fields-snapshot';
import { isUserFrame } from '../../src/shared/analysis/user-frame';
import { poolName } from '../../src/shared/format/words';
import { CATEGORY_NAMES, categoryOfFileText } from '../../src/shared/holders/categories';
import {
  groupKeyOf,
  NO_COMPILE_CONTEXT,
  NO_FORWARD_FRAMES,
  NO_METADATA,
} from '../../src/shared/holders/group-by';
import { analyzeBytes } from '../support/analyzed';

describe('grouping by the newest fields', () => {
  it('keys every allocation by what was planted on it', async () => {
    const generated = makeNewestSnapshot({ seed: 3, hostMemory: false });
    const snapshot = await analyzeBytes(dumpToBytes(generated.value));
    let checked = 0;
    for (const planted of generated.planted.allocations) {
      const device = snapshot.devices.find((d) => d.device === planted.device)!;
      const table = device.allocations;
      const key = (by: Parameters<typeof groupKeyOf>[2]) => groupKeyOf(snapshot, device, by);
      const keys = {
        metadata: key('metadata'),
        compile: key('compile_context'),
        forward: key('forward_frame'),
        pool: key('pool'),
        category: key('category'),
      };
      for (let row = 0; row < table.count; row++) {
        const start = table.startEvent[row]!;
        if (start < 0 || table.address[row] !== planted.addr) continue;
        if (device.timeUs?.[start] !== planted.timeUs) continue;
        expect(keys.metadata(row)).toBe(planted.userMetadata ?? NO_METADATA);
        expect(keys.compile(row)).toBe(planted.compileContext ?? NO_COMPILE_CONTEXT);
        const userForward = planted.forwardFrames.find((f) => isUserFrame(f.split(':')[0]!));
        expect(keys.forward(row)).toBe(
          planted.forwardFrames.length === 0
            ? NO_FORWARD_FRAMES
            : (userForward ?? planted.forwardFrames[0]),
        );
        expect(keys.pool(row)).toBe(poolName(planted.poolId));
        expect(keys.category(row)).toBe(CATEGORY_NAMES[categoryOfFileText(planted.category)!]);
        checked++;
      }
    }
    expect(checked).toBe(generated.planted.allocations.length);
  });
});
