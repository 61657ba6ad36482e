// The JSON form of a snapshot (what pytorch.org/memory_viz also accepts: `.json`, `.json.gz`):
// the same data as the pickle must decode to the same figures and details, in the decode path
// the page's worker and the CLI share, and in the CLI itself; bad JSON is refused with its offset.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { dumpToBytes } from '../../generators/pickle/pickle-writer';
import { snapshotToJson } from '../../generators/snapshot/json-form';
import { makeNewestSnapshot } from '../../generators/snapshot/newest-fields-snapshot';
import { allocationDetails } from '../../src/shared/analyzed/allocation-details';
import type { AnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import { UnreadableInputError } from '../../src/shared/errors/unreadable-input';
import { JsonReader, type JsonVisitor } from '../../src/shared/json/json-reader';
import { JsonInputError } from '../../src/shared/json/json-error';
import { analyzeBytes, chunksOf } from '../support/analyzed';
import { runCli } from '../support/cli';
import { decodeSnapshot } from '../../src/shared/snapshot/decode-snapshot';
import { summaryDocumentSchema } from '../../src/shared/report/summary-report';

const made = makeNewestSnapshot({ seed: 3 });
const pickleBytes = dumpToBytes(made.value);
const jsonText = snapshotToJson(made.value);
const jsonBytes = new TextEncoder().encode(jsonText);

/** Figures and every allocation's details, stacks by their frames (ids are the decoder's). */
function comparable(snapshot: AnalyzedSnapshot): unknown {
  const stackText = (stackId: number): string[] => {
    if (stackId < 0) return [];
    const { offsets, frameIds } = snapshot.stacks;
    return [...frameIds.subarray(offsets[stackId]!, offsets[stackId + 1]!)].map(
      (id) =>
        `${snapshot.frames.filename[id]}:${snapshot.frames.line[id]} ${snapshot.frames.name[id]}`,
    );
  };
  return {
    warnings: snapshot.warnings,
    annotations: snapshot.annotations,
    devices: snapshot.devices.map((device) => ({
      figures: {
        ...device.figures,
        largestAtPeak: device.figures.largestAtPeak.map(({ stackId, ...rest }) => ({
          ...rest,
          stack: stackText(stackId),
        })),
      },
      details: [...Array(device.allocations.count).keys()].map((row) => {
        const details = allocationDetails(snapshot, device, row);
        return {
          ...details,
          annotations: details.annotations.map(({ stackId, ...rest }) => ({
            ...rest,
            stack: stackText(stackId),
          })),
          stack: stackText(device.allocations.stackId[row]!),
        };
      }),
    })),
  };
}

/** The byte where the streaming reader refuses `text` (fed one byte at a time), or -1. */
function jsonErrorOffset(text: string): number {
  const ignore: JsonVisitor = {
    openObject() {},
    key() {},
    closeObject() {},
    openArray() {},
    closeArray() {},
    value() {},
  };
  const reader = new JsonReader(ignore);
  try {
    for (const byte of new TextEncoder().encode(text)) reader.feed(Uint8Array.of(byte));
    reader.finish();
    return -1;
  } catch (error) {
    if (!(error instanceof JsonInputError)) throw error;
    return error.offset;
  }
}

describe('the JSON form of a snapshot', () => {
  it('is several times the pickle of the same data (no shared objects)', () => {
    expect(jsonBytes.length).toBeGreaterThan(2 * pickleBytes.length);
  });

  it('decodes to the figures and details of the pickle', async () => {
    const [fromPickle, fromJson] = await Promise.all([
      analyzeBytes(pickleBytes),
      analyzeBytes(jsonBytes, 'x.json'),
    ]);
    expect(fromJson.pickleProtocol).toBeNull();
    expect(fromJson.devices.map((d) => d.device)).toEqual([0, 1, -1]);
    expect(comparable(fromJson)).toEqual(comparable(fromPickle));
  });

  it('decodes gzip-compressed, in small chunks, with leading white space', async () => {
    const reference = comparable(await analyzeBytes(pickleBytes));
    for (const bytes of [
      new Uint8Array(gzipSync(jsonBytes)),
      new TextEncoder().encode(`\n  ${jsonText}\n`),
    ]) {
      const model = await decodeSnapshot(chunksOf(bytes, 1000));
      const { buildAnalyzedSnapshot } = await import('../../src/shared/analyzed/analyzed-snapshot');
      const snapshot = buildAnalyzedSnapshot(model, {
        fileName: 'x.json',
        fileBytes: bytes.length,
      });
      expect(comparable(snapshot)).toEqual(reference);
    }
  });

  it('refuses bad JSON naming the byte where it goes wrong', async () => {
    const cut = jsonBytes.subarray(0, 5000);
    const broken = new TextEncoder().encode('{"segments": [], "device_traces": [[{"action": }]]}');
    await expect(analyzeBytes(cut, 'cut.json')).rejects.toThrow(
      /^not valid JSON: .* \(at byte 5000\)$/,
    );
    const error = await analyzeBytes(broken, 'broken.json').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnreadableInputError);
    expect((error as Error).message).toMatch(/^not valid JSON: .* \(at byte 47\)$/);
  });

  it.each([
    ['{"a": }', 6],
    ['[1, 2, ]', 7],
    ['{"a" 1}', 5],
    ['[1 2]', 3],
    ['{"a": 1,}', 8],
    ['{"segments": [{"device": 0', 26],
    ['"abc', 4],
    ['nul', 3],
    ['nulx', 3],
    ['{} x', 3],
    ['[01]', 1],
    ['["a\\x"]', 3],
    ['["\\u00e"]', 7],
    ['["tab\there"]', 5],
    ['', 0],
    ['  ', 2],
    ['{"a": [{}, [], {"b": [1, -2.5e3, true, null, "\\u00e9"]}]}', -1],
  ])('finds where %j stops being JSON (%i)', (text, position) => {
    expect(jsonErrorOffset(text)).toBe(position);
    let parses = true;
    try {
      JSON.parse(text);
    } catch {
      parses = false;
    }
    expect(parses).toBe(position === -1);
  });

  it('opens in the CLI like the pickle', () => {
    const dir = mkdtempSync(join(tmpdir(), 'allocscope-json-'));
    const picklePath = join(dir, 'run.pickle');
    const jsonPath = join(dir, 'run.json.gz');
    writeFileSync(picklePath, pickleBytes);
    writeFileSync(jsonPath, gzipSync(jsonBytes));
    const fromPickle = runCli(['summary', picklePath, '--json']);
    const fromJson = runCli(['summary', jsonPath, '--json']);
    expect(fromJson.stderr).toBe('');
    expect(fromJson.status).toBe(0);
    // No pickle protocol: null says "the JSON form"; the document stays valid.
    const document = JSON.parse(fromJson.stdout) as { pickle_protocol: number | null };
    expect(document.pickle_protocol).toBeNull();
    expect(summaryDocumentSchema.safeParse(document).error).toBeUndefined();
    const strip = (text: string): unknown => {
      const {
        file: _f,
        bytes: _b,
        pickle_protocol: _p,
        ...rest
      } = JSON.parse(text) as Record<string, unknown>;
      return rest;
    };
    expect(strip(fromJson.stdout)).toEqual(strip(fromPickle.stdout));
    // The text says which form it read, never a pickle protocol the file does not have.
    const text = runCli(['summary', jsonPath]);
    expect(text.stdout.split('\n')[0]).toMatch(/^run\.json\.gz {2}\S+ \S+ {2}JSON form$/);
    expect(text.stdout).not.toMatch(/pickle protocol/);
    expect(runCli(['summary', picklePath]).stdout.split('\n')[0]).toMatch(/ {2}pickle protocol 4$/);
  });
});
