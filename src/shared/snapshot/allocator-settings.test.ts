import { describe, expect, it } from 'vitest';
import { sanitizeAllocatorSettings } from './allocator-settings';

describe('sanitizeAllocatorSettings', () => {
  it("keeps PyTorch's plain values and the exact digits of a huge integer", () => {
    const warnings: string[] = [];
    const settings = {
      PYTORCH_CUDA_ALLOC_CONF: 'expandable_segments:True',
      max_split_size: -1,
      expandable_segments: true,
      roundup_power2_divisions: [1, 2, 4, 8],
      garbage_collection_threshold: 0.0,
      huge: 2n ** 70n,
      nothing: null,
    };
    expect(sanitizeAllocatorSettings(settings, warnings)).toEqual({
      ...settings,
      huge: '1180591620717411303424',
    });
    expect(warnings).toEqual([]);
  });

  it('drops nested, self-referencing, shared-bomb and non-plain values with one warning naming them', () => {
    const warnings: string[] = [];
    const loop: unknown[] = [];
    loop.push(loop);
    const wide = Array.from({ length: 4000 }, (_, i) => i);
    const bomb: Record<string, unknown> = {};
    for (let i = 0; i < 8; i++) bomb[`k${i}`] = wide;
    const kept = sanitizeAllocatorSettings(
      {
        ok: 1,
        deep: [[[[1]]]],
        loop,
        bytes: new Uint8Array(3),
        nan: Number.NaN,
        frozen: Object.freeze({ a: 1 }),
        ...bomb,
      },
      warnings,
    );
    expect(kept.ok).toBe(1);
    for (const key of ['deep', 'loop', 'bytes', 'nan', 'frozen'])
      expect(kept).not.toHaveProperty(key);
    // The shared list is walked only until the budget runs out, however many keys name it.
    expect(Object.keys(kept).filter((key) => key.startsWith('k')).length).toBeLessThan(8);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^allocator_settings\.deep, allocator_settings\.loop, allocator_settings\.bytes and \d+ more ignored: not a plain setting value$/,
    );
  });
});
