import { describe, expect, it } from 'vitest';
import {
  estimateUnpacked,
  MAX_UNPACK_RATIO,
  MEMORY_PER_DECODED_BYTE,
  NO_MEMORY_LIMIT,
  UnpackedBudget,
  unpackedBytesAllowed,
  UNPACKED_BYTES_ALLOWED_ANYWAY,
  type MemoryLimit,
} from './unpacked-budget';

const MiB = 2 ** 20;
const GiB = 2 ** 30;
const FOUR_GiB = 2 ** 32;

/** Progress after `unpacked` bytes out of `consumed` bytes taken in (none pending). */
const at = (unpacked: number, consumed: number) => ({ unpacked, consumed, pending: 0 });

describe('estimateUnpacked', () => {
  it('counts only what is unpacked before the first 2 MiB, whatever the trailer says', () => {
    const estimate = estimateUnpacked({ packedBytes: 10 * MiB, isize: 3 * GiB }, at(MiB, 4096));
    expect(estimate).toEqual({ atLeast: MiB, likely: MiB, from: 'count' });
  });

  it('then goes by the ratio, held against the limit at half of it', () => {
    const estimate = estimateUnpacked({ packedBytes: 10 * MiB, isize: null }, at(4 * MiB, 16384));
    // 256 times 10 MiB.
    expect(estimate).toEqual({ atLeast: 1280 * MiB, likely: 2560 * MiB, from: 'ratio' });
  });

  it('counts the bytes still pending in the ratio: a lower bound', () => {
    const estimate = estimateUnpacked(
      { packedBytes: 10 * MiB, isize: null },
      { unpacked: 4 * MiB, consumed: 8192, pending: 8192 },
    );
    expect(estimate.likely).toBe(2560 * MiB);
  });

  it('believes a trailer the ratio agrees with, and gives its figure', () => {
    const isize = 2_999_954_334;
    const estimate = estimateUnpacked({ packedBytes: 11_624_910, isize }, at(18 * MiB, 73_000));
    expect(estimate).toEqual({ atLeast: isize, likely: isize, from: 'trailer' });
  });

  it('picks the size past 4 GiB with the trailer remainder nearest the ratio', () => {
    const real = 10_000_081_880;
    const isize = real % FOUR_GiB;
    // The ratio seen is 4% low, as the pieces still in the inflater make it.
    const estimate = estimateUnpacked(
      { packedBytes: 38_750_096, isize },
      at(18 * MiB, Math.round((18 * MiB * 38_750_096) / (real * 0.96))),
    );
    expect(estimate.likely).toBe(real);
    expect(estimate.from).toBe('ratio');
    expect(estimate.atLeast).toBeLessThanOrEqual(real);
  });

  it('ignores a trailer the ratio does not agree with (a file cut short, padding)', () => {
    // 20 times 10 MiB, and last four bytes that say 3 GiB.
    const estimate = estimateUnpacked(
      { packedBytes: 10 * MiB, isize: 3 * GiB },
      at(4 * MiB, (4 * MiB) / 20),
    );
    expect(estimate).toEqual({ atLeast: 100 * MiB, likely: 200 * MiB, from: 'ratio' });
  });

  it('holds a trailer that says too little against the ratio (a trailer that lies)', () => {
    const estimate = estimateUnpacked({ packedBytes: 10 * MiB, isize: 1000 }, at(4 * MiB, 16384));
    expect(estimate.likely).toBe(2560 * MiB);
    expect(estimate.from).toBe('ratio');
    // The only sizes such a file could have if it were accepted: 1,000 bytes plus 4 GiB steps.
    expect(estimate.atLeast).toBe(1000 + FOUR_GiB);
  });

  it('knows nothing but the count without the size (a pipe)', () => {
    const estimate = estimateUnpacked({ packedBytes: null, isize: null }, at(300 * MiB, MiB));
    expect(estimate).toEqual({ atLeast: 300 * MiB, likely: 300 * MiB, from: 'count' });
  });
});

describe('unpackedBytesAllowed', () => {
  const machine: MemoryLimit = { bytes: 24 * GiB, source: "this machine's memory", chosen: false };

  it('allows 64 times the file, at least 32 MiB, within the memory', () => {
    expect(unpackedBytesAllowed(machine, 11 * MiB)).toEqual({
      bytes: MAX_UNPACK_RATIO * 11 * MiB,
      byRatio: true,
    });
    expect(unpackedBytesAllowed(machine, 1000).bytes).toBe(UNPACKED_BYTES_ALLOWED_ANYWAY);
    expect(unpackedBytesAllowed(machine, 500 * MiB)).toEqual({
      bytes: (24 * GiB) / MEMORY_PER_DECODED_BYTE,
      byRatio: false,
    });
  });

  it('allows what the user chose, however well the file compresses', () => {
    const chosen = { ...machine, bytes: 9 * GiB, chosen: true };
    expect(unpackedBytesAllowed(chosen, 11 * MiB)).toEqual({ bytes: 3 * GiB, byRatio: false });
  });

  it('has no memory limit but the ratio by default', () => {
    expect(unpackedBytesAllowed(NO_MEMORY_LIMIT, 10 * GiB).bytes).toBe(MAX_UNPACK_RATIO * 10 * GiB);
    expect(unpackedBytesAllowed(NO_MEMORY_LIMIT, MiB / 4).bytes).toBe(
      UNPACKED_BYTES_ALLOWED_ANYWAY,
    );
  });
});

describe('UnpackedBudget', () => {
  const cli: MemoryLimit = {
    bytes: 24 * GiB,
    source: "this machine's memory",
    chosen: false,
    raiseTo: (bytes, moreThan) =>
      moreThan ? 'more' : `--max-memory ${Math.ceil(bytes / GiB)}G allows it`,
  };

  it('refuses a bomb the trailer tells of, naming its size, the limit and the way past it', () => {
    const budget = new UnpackedBudget(cli, { packedBytes: 11_624_910, isize: 2_999_954_334 });
    const progress = at(18 * MiB, 73_000);
    expect(budget.exceeded(progress, 11_624_910)).toBe(true);
    expect(budget.refusal(progress, 11_624_910).message).toBe(
      'the gzip data unpacks to 2.8 GiB (says its trailer), 258 times its size: decoding it could ' +
        'take 8.4 GiB of memory, over the limit of 2.1 GiB for a file of 11.1 MiB (snapshots ' +
        'compress up to about 40 times); --max-memory 9G allows it',
    );
  });

  it('lets a file through that unpacks as snapshots do', () => {
    const budget = new UnpackedBudget(cli, { packedBytes: 300 * MiB, isize: null });
    expect(budget.exceeded(at(100 * MiB, 5 * MiB), 6 * MiB)).toBe(false);
  });

  it('refuses past the machine: the limit named as such', () => {
    const budget = new UnpackedBudget(cli, { packedBytes: GiB, isize: null });
    const progress = at(40 * MiB, 2 * MiB);
    expect(budget.exceeded(progress, 3 * MiB)).toBe(true);
    expect(budget.refusal(progress, 3 * MiB).message).toBe(
      'the gzip data would unpack to about 20.0 GiB, 20 times its size (judging by the first ' +
        '40.0 MiB): decoding it could take 60.0 GiB of memory, over the limit of 24.0 GiB ' +
        "(this machine's memory); --max-memory 60G allows it",
    );
  });

  it('refuses a pipe once it has unpacked more than 64 times what it read', () => {
    const budget = new UnpackedBudget(cli, { packedBytes: null, isize: null });
    expect(budget.exceeded(at(64 * MiB, MiB), MiB)).toBe(false);
    expect(budget.exceeded(at(65 * MiB, MiB), MiB)).toBe(true);
    expect(budget.refusal(at(65 * MiB, MiB), MiB).message).toBe(
      'the gzip data unpacks to more than 65.0 MiB, 65 times the 1.0 MiB read so far: decoding ' +
        'it could take 195.0 MiB of memory, over the limit of 192.0 MiB for 1.0 MiB of gzip data ' +
        '(snapshots compress up to about 40 times); more',
    );
  });

  it('lets the JSON form compress twice as well as a pickle, and says so when it refuses', () => {
    // A 16 MiB .json.gz whose trailer says 1.25 GiB: 80 times, as the best-compressing real
    // snapshot's JSON form does; as a pickle that ratio is a bomb.
    const facts = { packedBytes: 16 * MiB, isize: 1280 * MiB };
    const progress = at(40 * MiB, MiB / 2);
    const asPickle = new UnpackedBudget(cli, facts);
    expect(asPickle.exceeded(progress, MiB)).toBe(true);
    const asJson = new UnpackedBudget(cli, facts);
    asJson.holds('json');
    expect(asJson.exceeded(progress, MiB)).toBe(false);
    const bomb = new UnpackedBudget(cli, { ...facts, isize: 2560 * MiB });
    bomb.holds('json');
    const bombProgress = at(40 * MiB, MiB / 4);
    expect(bomb.exceeded(bombProgress, MiB)).toBe(true);
    expect(bomb.refusal(bombProgress, MiB).message).toMatch(
      /unpacks to 2\.5 GiB \(says its trailer\), 160 times its size: .* for a file of 16\.0 MiB \(snapshots in JSON form compress up to about 80 times\)/,
    );
  });

  it('says nothing of raising the limit where there is no way (the page)', () => {
    const page: MemoryLimit = { bytes: 2 * GiB, source: "this device's memory", chosen: false };
    const budget = new UnpackedBudget(page, { packedBytes: 100 * MiB, isize: null });
    expect(budget.refusal(at(40 * MiB, 2 * MiB), 3 * MiB).message).toMatch(
      /over the limit of 2\.0 GiB \(this device's memory\)$/,
    );
  });
});
