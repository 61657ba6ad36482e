// The JSON form streams through the bounded JSON reader: where the reader's chunks fall must never
// change what it decodes to, nor the words and byte of a refusal. Real snapshots in their JSON
// form (what json.dumps writes of the unpickled value: every shared frame written out again) and
// the newest-fields snapshot decode to the same model at 1 MiB, 64 KiB, 7 B and 1 B chunks, and to
// the model of their pickle; hostile JSON is refused with the same line at every chunk size.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dumpToBytes } from '../../generators/pickle/pickle-writer';
import { snapshotToJson } from '../../generators/snapshot/json-form';
import { makeNewestSnapshot } from '../../generators/snapshot/newest-fields-snapshot';
import { unpickle } from '../../src/shared/pickle/unpickler';
import { decodeSnapshot } from '../../src/shared/snapshot/decode-snapshot';
import type { SnapshotModel } from '../../src/shared/snapshot/model';
import { chunksOf } from '../support/analyzed';
import { HOSTILE_FILES } from '../support/hostile-files';
import { realSnapshotPaths } from '../support/real-snapshots';
import { expectSameValue } from '../support/same-value';

const CHUNK_SIZES = [1 << 16, 7, 1];
/**
 * Tiny chunks cost an await each: the JSON of the larger real snapshots is tens of MB, so they
 * get 7 B chunks up to 2 MiB and 1 B chunks up to 256 KiB (the JSON reader itself is the same).
 */
const CHUNKS_OF_7_UP_TO_BYTES = 2 << 20;
const CHUNKS_OF_1_UP_TO_BYTES = 256 << 10;

/** The chunk sizes a file of `length` bytes is decoded at, besides 1 MiB. */
function chunkSizesFor(length: number): number[] {
  return CHUNK_SIZES.filter(
    (size) =>
      (size !== 7 || length <= CHUNKS_OF_7_UP_TO_BYTES) &&
      (size !== 1 || length <= CHUNKS_OF_1_UP_TO_BYTES),
  );
}

function decode(bytes: Uint8Array, size: number): Promise<SnapshotModel> {
  return decodeSnapshot(chunksOf(bytes, size), { totalBytes: bytes.length });
}

/** The JSON form of a pickle, as Python's json.dumps would write its unpickled value. */
function jsonOfPickle(pickle: Uint8Array): Uint8Array {
  const value = unpickle(pickle);
  return new TextEncoder().encode(
    JSON.stringify(value, (_key, item: unknown) =>
      typeof item === 'bigint' ? Number(item) : item,
    ),
  );
}

const newest = makeNewestSnapshot({ seed: 5 });
const CASES: [string, () => { pickle: Uint8Array; json: Uint8Array }][] = [
  [
    'the newest-fields snapshot',
    () => ({
      pickle: dumpToBytes(newest.value),
      json: new TextEncoder().encode(snapshotToJson(newest.value)),
    }),
  ],
  ...realSnapshotPaths().map((path): [string, () => { pickle: Uint8Array; json: Uint8Array }] => [
    basename(path),
    () => {
      const pickle = new Uint8Array(readFileSync(path));
      return { pickle, json: jsonOfPickle(pickle) };
    },
  ]),
];

describe.each(CASES)('%s in the JSON form', (_name, make) => {
  it('decodes to the model of its pickle, whatever the chunk size', async () => {
    const { pickle, json } = make();
    const reference = await decode(json, 1 << 20);
    expect(reference.pickleProtocol).toBeNull();
    const fromPickle = await decode(pickle, 1 << 20);
    expectSameValue({ ...reference, pickleProtocol: fromPickle.pickleProtocol }, fromPickle);
    for (const size of chunkSizesFor(json.length)) {
      expectSameValue(await decode(json, size), reference, `chunks of ${size} B`);
    }
  }, 300_000);
});

describe('hostile JSON', () => {
  const files = HOSTILE_FILES.filter((file) => file.name.endsWith('.json'));

  it.each(files.map((file) => [file.name, file] as const))(
    '%s gets the same verdict at every chunk size',
    async (_name, file) => {
      // The refusals come within the first MiB or so: the rest is never read.
      const bytes = file.bytes();
      const verdict = (size: number): Promise<string> =>
        decode(bytes, size).then(
          (model) => `opens (${model.traces.length} traces)`,
          (error: unknown) => String(error),
        );
      const reference = await verdict(1 << 20);
      for (const size of [...chunkSizesFor(bytes.length), 4099]) {
        expect(await verdict(size), `chunks of ${size} B`).toBe(reference);
      }
    },
    120_000,
  );
});
