// The classifier (src/shared/holders/classify.ts) tests each stack once and reads each rule's
// conditions once into fields of one shape, for speed. Here every allocation is classified again
// the plain way, rule after rule with every condition read from the parsed rules file as written
// (frames, label, file_category, in_backward, alive_at_end, made_before_trace, lifetimes in
// events and as a share, boundaries included), and both agree on real snapshots and on a
// generated one whose allocations carry the file's own category.

import { describe, expect, it } from 'vitest';
import { dumpToBytes } from '../../generators/pickle/pickle-writer';
import { makeNewestSnapshot } from '../../generators/snapshot/newest-fields-snapshot';
import type { AnalyzedDevice, AnalyzedSnapshot } from '../../src/shared/analyzed/analyzed-snapshot';
import { stackLabel } from '../../src/shared/analysis/user-frame';
import { CATEGORIES, categoryOfFileText } from '../../src/shared/holders/categories';
import {
  CATEGORY_RULES_SCHEMA,
  DEFAULT_CATEGORY_RULES,
  isBackwardFrameText,
  parseCategoryRules,
  type CategoryRules,
} from '../../src/shared/holders/category-rules';
import { classifyAllocations, frameSearchText } from '../../src/shared/holders/classify';
import { NO_STRING } from '../../src/shared/snapshot/model';
import { stackFrameIds } from '../../src/shared/snapshot/stack-source';
import { analyzeBytes, analyzeFile } from '../support/analyzed';
import { realSnapshotPath } from '../support/real-snapshots';

/** Rules that ask every condition there is, the lifetime ones at this device's own boundaries. */
function everyConditionRules(device: AnalyzedDevice): CategoryRules {
  const table = device.allocations;
  // A lifetime some allocation made and freed in the trace has exactly, so that the bounds are
  // met, not only passed.
  let someLifetime = 3;
  for (let row = 0; row < table.count; row++) {
    if (table.startEvent[row]! >= 0 && table.endEvent[row]! < device.traceLength) {
      someLifetime = table.endEvent[row]! - table.startEvent[row]!;
      break;
    }
  }
  const share = Math.min(1, someLifetime / Math.max(1, device.traceLength));
  const parsed = parseCategoryRules({
    schema: CATEGORY_RULES_SCHEMA,
    rules: [
      { category: 'activation', match: { file_category: 'act', alive_at_end: false } },
      { category: 'parameter', match: { label: 'AccumulateGrad', made_before_trace: false } },
      { category: 'gradient', match: { in_backward: true, min_lifetime_events: someLifetime } },
      { category: 'optimizer_state', match: { frame: 'optim', max_lifetime_share: share } },
      {
        category: 'activation',
        match: {
          in_backward: false,
          min_lifetime_share: share,
          max_lifetime_events: someLifetime + 5,
        },
      },
      { category: 'temporary', match: { max_lifetime_events: someLifetime, alive_at_end: false } },
      { category: 'autograd_other', match: { made_before_trace: true, frame: '\\.py:' } },
      { category: 'parameter', match: { alive_at_end: true, min_lifetime_share: 0.5 } },
      ...DEFAULT_CATEGORY_RULES.rules,
    ],
  });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.rules;
}

const compiled = new Map<string, RegExp>();
function test(pattern: string, text: string): boolean {
  let regex = compiled.get(pattern);
  if (regex === undefined) {
    regex = new RegExp(pattern);
    compiled.set(pattern, regex);
  }
  return regex.test(text);
}

/** One allocation's category the plain way: the first rule all of whose conditions hold. */
function plainCategory(
  snapshot: AnalyzedSnapshot,
  device: AnalyzedDevice,
  rules: CategoryRules,
  row: number,
): string {
  const table = device.allocations;
  const start = table.startEvent[row]!;
  const fileId = start < 0 ? NO_STRING : (device.details?.categoryId?.[start] ?? NO_STRING);
  const fileText = fileId === NO_STRING ? null : (snapshot.strings?.[fileId] ?? null);
  const fromFile = fileText === null ? null : categoryOfFileText(fileText);
  if (fromFile !== null) return fromFile;
  const frameTexts = Array.from(stackFrameIds(snapshot, table.stackId[row]!), (id) =>
    frameSearchText(
      snapshot.frames.filename[id]!,
      snapshot.frames.line[id]!,
      snapshot.frames.name[id]!,
    ),
  );
  const label = stackLabel(snapshot, table.stackId[row]!);
  const end = table.endEvent[row]!;
  const lifetime = Math.min(end, device.traceLength) - start;
  const length = Math.max(1, device.traceLength);
  for (const { category, match } of rules.rules) {
    if (match.frame !== undefined && !frameTexts.some((text) => test(match.frame!, text))) continue;
    if (match.label !== undefined && (label === null || !test(match.label, label))) continue;
    if (
      match.file_category !== undefined &&
      (fileText === null || !test(match.file_category, fileText))
    )
      continue;
    if (
      match.in_backward !== undefined &&
      match.in_backward !== frameTexts.some(isBackwardFrameText)
    )
      continue;
    if (match.alive_at_end !== undefined && match.alive_at_end !== end >= device.traceLength)
      continue;
    if (match.made_before_trace !== undefined && match.made_before_trace !== start < 0) continue;
    if (match.min_lifetime_events !== undefined && lifetime < match.min_lifetime_events) continue;
    if (match.max_lifetime_events !== undefined && lifetime > match.max_lifetime_events) continue;
    if (match.min_lifetime_share !== undefined && lifetime / length < match.min_lifetime_share)
      continue;
    if (match.max_lifetime_share !== undefined && lifetime / length > match.max_lifetime_share)
      continue;
    return category;
  }
  return 'unknown';
}

function expectPlainAgreement(snapshot: AnalyzedSnapshot): number {
  let rows = 0;
  const seen = new Set<string>();
  for (const device of snapshot.devices) {
    for (const rules of [DEFAULT_CATEGORY_RULES, everyConditionRules(device)]) {
      const column = classifyAllocations(snapshot, device, rules);
      for (let row = 0; row < device.allocations.count; row++) {
        const expected = plainCategory(snapshot, device, rules, row);
        seen.add(expected);
        if (CATEGORIES[column[row]!] !== expected)
          expect({ row, category: CATEGORIES[column[row]!] }).toEqual({ row, category: expected });
        rows++;
      }
    }
  }
  // More than one answer, or the comparison says little.
  expect(seen.size).toBeGreaterThan(2);
  return rows;
}

describe('the classifier against the plain reading of the rules', () => {
  it.each(['LINYUN', 'Constructor-Sun', 'a0kuma', 'volcengine'])('%s', async (prefix) => {
    const snapshot = await analyzeFile(realSnapshotPath(prefix));
    expect(expectPlainAgreement(snapshot)).toBeGreaterThan(0);
  });

  it('a generated snapshot whose allocations carry their own category', async () => {
    const generated = makeNewestSnapshot({ seed: 5, hostMemory: false });
    const snapshot = await analyzeBytes(dumpToBytes(generated.value));
    expect(expectPlainAgreement(snapshot)).toBeGreaterThan(0);
  });
});
