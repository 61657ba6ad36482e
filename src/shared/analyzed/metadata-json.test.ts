import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_NESTING_DEPTH } from '../limits/input-limits';
import { MAX_METADATA_JSON_CHARS, metadataJson, nestedDeeperThan } from './metadata-json';

const deepList = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

afterEach(() => vi.restoreAllMocks());

describe('metadataJson', () => {
  it('reads JSON text, and leaves plain words and broken JSON as text', () => {
    expect(metadataJson('{"step": 3, "phase": "backward"}')).toEqual({
      value: { step: 3, phase: 'backward' },
      notRead: null,
    });
    expect(metadataJson(' [1, 2]')).toEqual({ value: [1, 2], notRead: null });
    expect(metadataJson('warmup')).toEqual({ value: undefined, notRead: null });
    expect(metadataJson('{"step": 3')).toEqual({ value: undefined, notRead: null });
    // Starts like `null`, is not JSON: the annotate entry of fuzz seed 20261128 case 14038.
    expect(metadataJson('n'.repeat(100_000))).toEqual({ value: undefined, notRead: null });
  });

  it('reads text nested as deep as a snapshot may be, and no deeper, without parsing it', () => {
    expect(metadataJson(deepList(MAX_NESTING_DEPTH)).notRead).toBeNull();
    const parse = vi.spyOn(JSON, 'parse');
    // The size of fuzz seed 20261128 case 14038's user_metadata: 902,058 characters.
    for (const depth of [MAX_NESTING_DEPTH + 1, 451_029]) {
      expect(metadataJson(deepList(depth))).toEqual({
        value: undefined,
        notRead: 'nested more than 4,096 levels deep',
      });
    }
    expect(parse).not.toHaveBeenCalled();
  });

  it('does not read text longer than MAX_METADATA_JSON_CHARS, and says how long it is', () => {
    const long = `["${'x'.repeat(MAX_METADATA_JSON_CHARS)}"]`;
    const parse = vi.spyOn(JSON, 'parse');
    expect(metadataJson(long)).toEqual({
      value: undefined,
      notRead: '1,048,580 characters, more than the 1,048,576 read as JSON',
    });
    expect(parse).not.toHaveBeenCalled();
    expect(metadataJson(long.slice(0, MAX_METADATA_JSON_CHARS - 2) + '"]').notRead).toBeNull();
  });
});

describe('nestedDeeperThan', () => {
  it('counts brackets and braces, not those inside strings (escaped quotes too)', () => {
    expect(nestedDeeperThan('[{"a": [1]}]', 3)).toBe(false);
    expect(nestedDeeperThan('[{"a": [1]}]', 2)).toBe(true);
    expect(nestedDeeperThan(`["${'['.repeat(50)}"]`, 1)).toBe(false);
    expect(nestedDeeperThan(`["\\"${'{'.repeat(50)}"]`, 1)).toBe(false);
    expect(nestedDeeperThan(`["\\\\", [[1]]]`, 2)).toBe(true);
    // Depth comes back down: siblings do not add up.
    expect(nestedDeeperThan('[[1],[2],[3],[4]]', 2)).toBe(false);
  });
});
