// Categories of allocations (src/shared/holders): the file's own `category` wins; the built-in
// rules agree with the labels they are built on; a rules file replaces them; bad rules files are
// refused with the place of the problem.

import { describe, expect, it } from 'vitest';
import { dumpToBytes } from '../../generators/pickle/pickle-writer';
import { makeNewestSnapshot } from '../../generators/snapshot/newest-fields-snapshot';
import { describeStack } from '../../src/shared/analysis/user-frame';
import { categoryOfFileText } from '../../src/shared/holders/categories';
import {
  CATEGORY_RULES_SCHEMA,
  DEFAULT_CATEGORY_RULES,
  parseCategoryRules,
} from '../../src/shared/holders/category-rules';
import { categoriesOf, categoryAt } from '../../src/shared/holders/classify';
import { analyzeBytes, analyzeFile } from '../support/analyzed';
import { realSnapshotPath } from '../support/real-snapshots';

describe('categories', () => {
  it("takes the file's own category for every allocation that has one", async () => {
    const generated = makeNewestSnapshot({ seed: 5, hostMemory: false });
    const snapshot = await analyzeBytes(dumpToBytes(generated.value));
    let checked = 0;
    for (const planted of generated.planted.allocations) {
      const device = snapshot.devices.find((d) => d.device === planted.device)!;
      const table = device.allocations;
      const column = categoriesOf(snapshot, device);
      for (let row = 0; row < table.count; row++) {
        const start = table.startEvent[row]!;
        if (start < 0 || table.address[row] !== planted.addr) continue;
        if (device.timeUs?.[start] !== planted.timeUs) continue;
        expect(categoryAt(column, row)).toBe(categoryOfFileText(planted.category));
        checked++;
      }
    }
    expect(checked).toBe(generated.planted.allocations.length);
  });

  it('reads the words files use for categories', () => {
    expect(categoryOfFileText('PARAMETER')).toBe('parameter');
    expect(categoryOfFileText('Category.OPTIMIZER_STATE')).toBe('optimizer_state');
    expect(categoryOfFileText('optimizer state')).toBe('optimizer_state');
    expect(categoryOfFileText('AUTOGRAD_DETAIL')).toBe('autograd_other');
    expect(categoryOfFileText('weights')).toBeNull();
  });

  it('calls gradients what autograd accumulates, and optimizer state what torch/optim keeps', async () => {
    const snapshot = await analyzeFile(realSnapshotPath('LINYUN'));
    const device = snapshot.devices[0]!;
    const table = device.allocations;
    const column = categoriesOf(snapshot, device);
    for (let row = 0; row < table.count; row++) {
      const stackId = table.stackId[row]!;
      const label = describeStack(snapshot, stackId);
      const category = categoryAt(column, row);
      // Independent of the rules' regexes: the stack's label and its frames read directly.
      expect(category === 'gradient', label).toBe(label === 'autograd: AccumulateGrad');
      if (category === 'optimizer_state') {
        const files: string[] = [];
        for (
          let i = snapshot.stacks.offsets[stackId]!;
          i < snapshot.stacks.offsets[stackId + 1]!;
          i++
        )
          files.push(snapshot.frames.filename[snapshot.stacks.frameIds[i]!]!);
        expect(files.some((file) => file.includes('/torch/optim/'))).toBe(true);
      }
      if (stackId < 0) expect(category).toBe('unknown');
    }
  });

  it('replaces the built-in rules with a rules file, cached per rules', async () => {
    const snapshot = await analyzeFile(realSnapshotPath('LINYUN'));
    const device = snapshot.devices[0]!;
    const parsed = parseCategoryRules({
      schema: CATEGORY_RULES_SCHEMA,
      rules: [
        { category: 'parameter', match: { label: 'AccumulateGrad' } },
        { category: 'temporary', match: { made_before_trace: false } },
      ],
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const column = categoriesOf(snapshot, device, parsed.rules);
    expect(categoriesOf(snapshot, device, parsed.rules)).toBe(column);
    expect(categoriesOf(snapshot, device, DEFAULT_CATEGORY_RULES)).not.toBe(column);
    const table = device.allocations;
    for (let row = 0; row < table.count; row++) {
      const label = describeStack(snapshot, table.stackId[row]!);
      const expected =
        label === 'autograd: AccumulateGrad'
          ? 'parameter'
          : table.startEvent[row]! >= 0
            ? 'temporary'
            : 'unknown';
      expect(categoryAt(column, row)).toBe(expected);
    }
  });

  it('refuses rules files that are not right, saying where', () => {
    const bad = (json: unknown): string => {
      const parsed = parseCategoryRules(json);
      return parsed.ok ? 'accepted' : parsed.message;
    };
    expect(bad({ rules: [] })).toMatch(/^schema: /);
    expect(
      bad({ schema: CATEGORY_RULES_SCHEMA, rules: [{ category: 'weights', match: {} }] }),
    ).toMatch(/^rules\.0\.category: /);
    expect(
      bad({
        schema: CATEGORY_RULES_SCHEMA,
        rules: [{ category: 'gradient', match: { frame: '(' } }],
      }),
    ).toMatch(/^rules\.0\.match\.frame: not a regular expression: missing closing \)/);
    // Patterns run on RE2: what it cannot run in linear time is refused, saying what it is.
    expect(
      bad({
        schema: CATEGORY_RULES_SCHEMA,
        rules: [{ category: 'gradient', match: { label: '(\\w+) \\1' } }],
      }),
    ).toBe(
      "rules.0.match.label: the expression uses a backreference \\1, which allocscope's linear-time regular expressions do not support",
    );
    expect(
      bad({
        schema: CATEGORY_RULES_SCHEMA,
        rules: [{ category: 'gradient', match: { colour: 'red' } }],
      }),
    ).toMatch(/^rules\.0\.match: /);
    expect(bad(DEFAULT_CATEGORY_RULES)).toBe('accepted');
  });
});
