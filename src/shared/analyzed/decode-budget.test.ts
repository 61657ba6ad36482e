import { describe, expect, it } from 'vitest';
import {
  decodedBytesOf,
  GZIP_RATIO_GUESS,
  MAX_PARTS,
  MEMORY_PER_FILE_BYTE,
  MIN_BYTES_FOR_PARTS,
  MIN_CORES_FOR_PARTS,
  mayStartDecode,
  parallelDecodes,
  partsForOneDecode,
  MEMORY_PER_PART_THREAD,
} from './decode-budget';

const GB = 1e9;

describe('parallelDecodes', () => {
  it('takes the fewest of the files, the cores and what the memory holds of the largest file', () => {
    expect(parallelDecodes([GB, GB, GB], { cores: 16, memoryBytes: 100 * GB })).toBe(3);
    expect(parallelDecodes(Array(8).fill(0.1 * GB), { cores: 2, memoryBytes: 100 * GB })).toBe(2);
    // 2 GB free holds 6 decodes of 0.1 GB files at 3x, but only one of a 1 GB file.
    expect(parallelDecodes(Array(8).fill(0.1 * GB), { cores: 16, memoryBytes: 2 * GB })).toBe(6);
    expect(parallelDecodes([0.1 * GB, GB], { cores: 16, memoryBytes: 2 * GB })).toBe(1);
  });

  it('always runs one, however little memory there is', () => {
    expect(parallelDecodes([10 * GB, 10 * GB], { cores: 4, memoryBytes: GB })).toBe(1);
    expect(parallelDecodes([], { cores: 4, memoryBytes: GB })).toBe(1);
  });
});

describe('decodedBytesOf', () => {
  it('counts a gzipped file unpacked: as its trailer says, else as the guess', () => {
    expect(decodedBytesOf('rank0.pickle', 100)).toBe(100);
    expect(decodedBytesOf('rank0.pickle.gz', 100, 2500)).toBe(2500);
    expect(decodedBytesOf('RANK0.PKL.GZ', 100)).toBe(100 * GZIP_RATIO_GUESS);
    expect(decodedBytesOf('rank0.pickle.gz', null)).toBeNull();
    expect(decodedBytesOf('rank0.pickle', null)).toBeNull();
  });
});

describe('mayStartDecode', () => {
  const resources = { cores: 3, memoryBytes: 9 * GB };
  it('starts the first decode whatever its size', () => {
    expect(mayStartDecode([], 100 * GB, resources)).toBe(true);
  });

  it('starts another while a core is free and the memory of all of them fits', () => {
    expect(mayStartDecode([GB], GB, resources)).toBe(true);
    expect(mayStartDecode([GB, GB, GB], 0, resources)).toBe(false); // no core left
    expect(mayStartDecode([2 * GB], GB, resources)).toBe(true); // 3 GB x 3 = 9 GB
    expect(mayStartDecode([2 * GB], 1.5 * GB, resources)).toBe(false);
    expect((2 * GB + GB) * MEMORY_PER_FILE_BYTE).toBe(resources.memoryBytes);
  });

  it('counts a file of unknown size against the cores only', () => {
    expect(mayStartDecode([null], null, resources)).toBe(true);
    expect(mayStartDecode([null, null, null], null, resources)).toBe(false);
  });
});

describe('partsForOneDecode', () => {
  it('decodes a large file on every core the memory allows, up to MAX_PARTS', () => {
    expect(partsForOneDecode(GB, { cores: 8, memoryBytes: 64 * GB })).toBe(8);
    expect(partsForOneDecode(GB, { cores: 128, memoryBytes: 64 * GB })).toBe(MAX_PARTS);
  });
  it('keeps one thread for small files, few cores, or too little memory for one decode', () => {
    expect(partsForOneDecode(MIN_BYTES_FOR_PARTS - 1, { cores: 8, memoryBytes: 64 * GB })).toBe(1);
    expect(partsForOneDecode(GB, { cores: MIN_CORES_FOR_PARTS - 1, memoryBytes: 64 * GB })).toBe(1);
    // One decode's memory, then an isolate per worker thread.
    const oneDecode = GB * MEMORY_PER_FILE_BYTE;
    expect(partsForOneDecode(GB, { cores: 8, memoryBytes: oneDecode })).toBe(1);
    expect(
      partsForOneDecode(GB, { cores: 8, memoryBytes: oneDecode + MEMORY_PER_PART_THREAD }),
    ).toBe(2);
    expect(
      partsForOneDecode(GB, { cores: 8, memoryBytes: oneDecode + 3.5 * MEMORY_PER_PART_THREAD }),
    ).toBe(4);
    expect(
      partsForOneDecode(GB, { cores: 8, memoryBytes: oneDecode + 7 * MEMORY_PER_PART_THREAD }),
    ).toBe(8);
  });
});
