// Who holds the memory at a moment (src/shared/holders), checked against independent code on
// every real snapshot, at the peak, the OOM, before the first entry, the end and random moments:
// the alive set is the brute-force one; every grouping puts each alive allocation in exactly one
// group and adds up to the active bytes of the timeline there; the flame graph's root is that
// figure and every node is the sum of its children and its own; the folded stacks add up too;
// search finds what a brute-force filter over the allocation table finds, over time as well.

import { basename } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnalyzedDevice, AnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import { aliveRowsAt } from '../../src/shared/holders/alive-rows';
import {
  flameStepKey,
  flameTree,
  rowsBelowNode,
  type FlameNode,
} from '../../src/shared/holders/flame-tree';
import { foldedStacks } from '../../src/shared/holders/folded-stacks';
import { GROUP_BYS, groupRows } from '../../src/shared/holders/group-by';
import { groupSeries } from '../../src/shared/holders/group-series';
import { seriesMoments } from '../../src/shared/holders/category-series';
import { compileSearch, matchedBytesCurve, matchingRows } from '../../src/shared/holders/search';
import { activeBytesAt } from '../../src/shared/holders/alive-rows';
import { deviceExplanationsOf } from '../../src/shared/oom/oom-explainer';
import { categoriesOf, categoryAt } from '../../src/shared/holders/classify';
import { Prng } from '../../generators/snapshot/prng';
import { analyzeFile } from '../support/analyzed';
import { realSnapshotPaths } from '../support/real-snapshots';

function bruteAlive(device: AnalyzedDevice, moment: number): number[] {
  const table = device.allocations;
  const rows: number[] = [];
  for (let row = 0; row < table.count; row++)
    if (table.startEvent[row]! <= moment && table.endEvent[row]! > moment) rows.push(row);
  return rows;
}

/** A stack as a folded line, outermost frame first, from the frame and stack tables. */
function foldedLine(snapshot: AnalyzedSnapshot, stackId: number): string {
  const { offsets, frameIds } = snapshot.stacks;
  const frames: string[] = [];
  for (let i = offsets[stackId]!; i < offsets[stackId + 1]!; i++) {
    const frame = frameIds[i]!;
    const file = snapshot.frames.filename[frame]!;
    const name = snapshot.frames.name[frame]!;
    const text =
      file === '' || file === '??' ? name : `${file}:${snapshot.frames.line[frame]!} ${name}`;
    frames.unshift(text.replaceAll(';', ',').replaceAll('\n', ' '));
  }
  return frames.length === 0 ? '(no stack recorded)' : frames.join(';');
}

function momentsOf(device: AnalyzedDevice, prng: Prng): number[] {
  const last = device.traceLength - 1;
  const moments = new Set([-1, last, Math.min(last, device.figures.active.peakEventIndex)]);
  for (const oom of device.ooms) moments.add(oom.eventIndex);
  for (let i = 0; i < 5 && last >= 0; i++) moments.add(prng.int(0, last));
  return [...moments];
}

/** The trace does not match the segments (the file says so): the curve is clamped there. */
function clamped(snapshot: AnalyzedSnapshot): boolean {
  return snapshot.warnings.some((w) => w.includes('the trace does not match'));
}

function checkNode(node: FlameNode): void {
  const childBytes = node.children.reduce((sum, child) => sum + child.bytes, 0);
  const childCount = node.children.reduce((sum, child) => sum + child.allocations, 0);
  expect(childBytes + node.selfBytes).toBe(node.bytes);
  expect(childCount).toBeLessThanOrEqual(node.allocations);
  expect(node.rows).toHaveLength(node.allocations);
  node.children.forEach(checkNode);
}

/** The frames of a stack as the search tests them, read straight from the tables. */
function stackTexts(snapshot: AnalyzedSnapshot, stackId: number): string[] {
  if (stackId < 0) return ['(no stack recorded)'];
  const texts: string[] = [];
  for (let i = snapshot.stacks.offsets[stackId]!; i < snapshot.stacks.offsets[stackId + 1]!; i++) {
    const id = snapshot.stacks.frameIds[i]!;
    texts.push(
      `${snapshot.frames.filename[id]}:${snapshot.frames.line[id]} ${snapshot.frames.name[id]}`,
    );
  }
  return texts;
}

describe.each(realSnapshotPaths().map((path) => [basename(path), path]))('%s', (_name, path) => {
  let snapshot: AnalyzedSnapshot;
  beforeAll(async () => {
    snapshot = await analyzeFile(path);
  });

  it('groups, the flame graph and folded stacks add up to the active bytes', () => {
    const prng = new Prng(11);
    for (const device of snapshot.devices) {
      for (const moment of momentsOf(device, prng)) {
        const context = `${device.device} @ ${moment}`;
        const rows = aliveRowsAt(device, moment);
        expect(
          [...rows].sort((a, b) => a - b),
          context,
        ).toEqual(bruteAlive(device, moment));
        let total = 0;
        for (const row of rows) total += device.allocations.sizeBytes[row]!;
        if (!clamped(snapshot)) expect(total, context).toBe(activeBytesAt(device, moment));
        for (const by of GROUP_BYS) {
          const groups = groupRows(snapshot, device, rows, by);
          expect(
            groups.reduce((sum, g) => sum + g.bytes, 0),
            `${context} by ${by}`,
          ).toBe(total);
          const members = groups.flatMap((g) => g.rows).sort((a, b) => a - b);
          expect(members, `${context} by ${by}: each allocation once`).toEqual(
            [...rows].sort((a, b) => a - b),
          );
          expect(new Set(groups.map((g) => g.key)).size).toBe(groups.length);
          // A stack's key (made once per stack and frame) is its frames, read straight here.
          if (by === 'stack')
            for (const group of groups)
              for (const row of group.rows.slice(0, 20))
                expect(group.key).toBe(foldedLine(snapshot, device.allocations.stackId[row]!));
        }
        for (const showFramework of [false, true]) {
          const tree = flameTree(snapshot, device, rows, { showFramework });
          // The allocations below a node, over the whole trace, are at this moment its rows.
          for (const child of tree.children.slice(0, 3)) {
            const grandchild = child.children[0];
            const steps = [child, ...(grandchild === undefined ? [] : [grandchild])];
            const mask = rowsBelowNode(snapshot, device, steps.map(flameStepKey), showFramework);
            const below = [...rows].filter((row) => mask[row] === 1).sort((a, b) => a - b);
            expect(below).toEqual([...steps.at(-1)!.rows].sort((a, b) => a - b));
          }
          expect(tree.bytes, context).toBe(total);
          expect(tree.allocations).toBe(rows.length);
          checkNode(tree);
        }
        const folded = foldedStacks(snapshot, device, rows);
        let weights = 0;
        for (const line of folded.split('\n').filter((l) => l !== '')) {
          const match = /^(.+) (\d+)$/.exec(line);
          expect(match, line).not.toBeNull();
          weights += Number(match![2]);
        }
        expect(weights, context).toBe(total);
      }
    }
  });

  it("each group's bytes over time are its bytes at every sampled moment", () => {
    for (const device of snapshot.devices) {
      const moments = seriesMoments(device.traceLength, 12, [device.figures.active.peakEventIndex]);
      for (const by of GROUP_BYS) {
        const keys = groupRows(snapshot, device, aliveRowsAt(device, moments.at(-1)!), by)
          .slice(0, 5)
          .map((group) => group.key);
        const series = groupSeries(snapshot, device, by, keys, moments);
        moments.forEach((moment, i) => {
          const atMoment = new Map(
            groupRows(snapshot, device, bruteAlive(device, moment), by).map((g) => [
              g.key,
              g.bytes,
            ]),
          );
          keys.forEach((key, k) =>
            expect(series[k]![i], `${by} ${key} @ ${moment}`).toBe(atMoment.get(key) ?? 0),
          );
        });
      }
    }
  });

  it("the OOM explainer's categories add up to the live bytes at its moment", () => {
    snapshot.devices.forEach((device, index) => {
      const { ooms, peak } = deviceExplanationsOf(snapshot, index);
      for (const explanation of [...ooms, ...(peak === null ? [] : [peak])]) {
        const column = categoriesOf(snapshot, device);
        const expected = new Map<string, number>();
        for (const row of bruteAlive(device, explanation.event)) {
          const category = categoryAt(column, row);
          expected.set(
            category,
            (expected.get(category) ?? 0) + device.allocations.sizeBytes[row]!,
          );
        }
        expect(
          new Map(explanation.categories.map((entry) => [entry.category, entry.bytes])),
        ).toEqual(new Map([...expected].filter(([, bytes]) => bytes > 0)));
        const bytes = explanation.categories.map((entry) => entry.bytes);
        expect(bytes).toEqual([...bytes].sort((a, b) => b - a));
        if (!clamped(snapshot))
          expect(bytes.reduce((sum, b) => sum + b, 0)).toBe(
            activeBytesAt(device, explanation.event),
          );
      }
    });
  });

  it('search finds what a brute-force filter finds, and its bytes over time', () => {
    const queries = [
      { text: 'forward', regex: false },
      { text: 'model.py', regex: false },
      { text: 'AccumulateGrad|Backward', regex: true },
      { text: '^/home/.*\\.py:\\d+ ', regex: true },
      { text: 'no stack', regex: false },
      { text: 'matches-nothing-at-all-3f9', regex: false },
    ];
    for (const device of snapshot.devices) {
      const table = device.allocations;
      for (const query of queries) {
        const search = compileSearch(query);
        const mask = matchingRows(snapshot, device, search);
        const pattern = query.regex
          ? new RegExp(query.text, 'i')
          : new RegExp(query.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
        const expected = new Uint8Array(table.count);
        for (let row = 0; row < table.count; row++)
          if (stackTexts(snapshot, table.stackId[row]!).some((t) => pattern.test(t)))
            expected[row] = 1;
        expect(mask, `${device.device} ${query.text}`).toEqual(expected);
        const curve = matchedBytesCurve(device, mask);
        const step = Math.max(1, Math.floor(device.traceLength / 25));
        for (let event = -1; event < device.traceLength; event += step) {
          let bytes = 0;
          for (const row of bruteAlive(device, event))
            if (expected[row] === 1) bytes += table.sizeBytes[row]!;
          expect(
            event < 0 ? curve.baselineBytes : curve.bytes[event],
            `${query.text} @ ${event}`,
          ).toBe(bytes);
        }
      }
      // A hex address finds the allocations whose block holds it.
      if (table.count > 0) {
        const row = Math.floor(table.count / 2);
        const inside = table.address[row]! + Math.floor(table.sizeBytes[row]! / 2);
        const mask = matchingRows(
          snapshot,
          device,
          compileSearch({ text: `0x${inside.toString(16)}`, regex: false }),
        );
        expect(mask[row]).toBe(1);
      }
    }
  });
});

describe('search input', () => {
  it('says what is wrong with a bad expression, and an empty box matches nothing', () => {
    const bad = compileSearch({ text: 'model(', regex: true });
    expect(bad.kind).toBe('invalid');
    expect(compileSearch({ text: '  ', regex: false }).kind).toBe('none');
    expect(compileSearch({ text: '0x7f3a00000000', regex: false })).toEqual({
      kind: 'address',
      address: 0x7f3a00000000,
    });
  });
});
