// Every allocation of a device in a category (./categories.ts) by a set of rules
// (./category-rules.ts): the file's own `category` when it names one of ours, else the first rule
// whose conditions all hold, else "unknown". Conditions on the stack are tested once per distinct
// stack (thousands), not per allocation (millions).

import type { AnalyzedDevice, AnalyzedSnapshot } from '../analyzed/analyzed-snapshot';
import { derivedKey, type DerivedKey } from '../analyzed/derived-cache';
import { stackLabel } from '../analysis/user-frame';
import { NO_STRING } from '../snapshot/model';
import { stackFrameIds } from '../snapshot/stack-source';
import { CATEGORIES, categoryOfFileText, type Category } from './categories';
import {
  compileRules,
  DEFAULT_CATEGORY_RULES,
  type CategoryRules,
  type CompiledRule,
  isBackwardFrameText,
} from './category-rules';

/** Index into CATEGORIES per allocation row. */
export type CategoryColumn = Uint8Array;

const UNKNOWN = CATEGORIES.indexOf('unknown');

// One classification per device and rules document, built on first use.
const keysByRules = new WeakMap<CategoryRules, DerivedKey<CategoryColumn>>();

/** The category of each allocation of `device` under `rules` (cached per device and rules). */
export function categoriesOf(
  snapshot: Pick<AnalyzedSnapshot, 'frames' | 'stacks' | 'strings'>,
  device: AnalyzedDevice,
  rules: CategoryRules = DEFAULT_CATEGORY_RULES,
): CategoryColumn {
  let key = keysByRules.get(rules);
  if (key === undefined) {
    key = derivedKey<CategoryColumn>('categories');
    keysByRules.set(rules, key);
  }
  return device.derived.get(key, () => classifyAllocations(snapshot, device, rules));
}

export function categoryAt(column: CategoryColumn, row: number): Category {
  return CATEGORIES[column[row]!] ?? 'unknown';
}

/** What a rule can ask about one stack, computed once per stack. */
interface StackFacts {
  /** Per rule: its frame and label conditions hold (true when it has none). */
  stackHolds: boolean[];
  inBackward: boolean;
}

/** Any (the rule does not ask), or the answer it asks for. */
const EITHER = -1;

/**
 * A rule's conditions on the allocation itself, read once into fields of one shape: read from
 * the parsed rule (its absent keys a miss each) for every rule and allocation, they cost ~0.6 µs
 * per allocation, most of the classification of a 1 GB file.
 */
class RowConditions {
  readonly category: number;
  readonly fileCategory: CompiledRule['fileCategory'];
  readonly aliveAtEnd: number;
  readonly madeBeforeTrace: number;
  readonly minEvents: number;
  readonly maxEvents: number;
  readonly minShare: number;
  readonly maxShare: number;

  constructor(rule: CompiledRule) {
    const match = rule.match;
    const asked = (value: boolean | undefined): number =>
      value === undefined ? EITHER : Number(value);
    this.category = CATEGORIES.indexOf(rule.category);
    this.fileCategory = rule.fileCategory;
    this.aliveAtEnd = asked(match.alive_at_end);
    this.madeBeforeTrace = asked(match.made_before_trace);
    this.minEvents = match.min_lifetime_events ?? -Infinity;
    this.maxEvents = match.max_lifetime_events ?? Infinity;
    this.minShare = match.min_lifetime_share ?? -Infinity;
    this.maxShare = match.max_lifetime_share ?? Infinity;
  }
}

export function classifyAllocations(
  snapshot: Pick<AnalyzedSnapshot, 'frames' | 'stacks' | 'strings'>,
  device: AnalyzedDevice,
  rules: CategoryRules,
): CategoryColumn {
  const compiled = compileRules(rules);
  const conditions = compiled.map((rule) => new RowConditions(rule));
  const table = device.allocations;
  const column = new Uint8Array(table.count).fill(UNKNOWN);
  // Per stack (index stackId + 1, so that NO_STACK has one too): the rules whose conditions on
  // the stack hold (frames, label, in_backward), in order.
  const candidatesByStack: (Int32Array | undefined)[] = [];
  const frameTests = new FrameTests(snapshot, compiled);
  const candidatesOf = (stackId: number): Int32Array => {
    let candidates = candidatesByStack[stackId + 1];
    if (candidates === undefined) {
      const facts = stackFacts(snapshot, stackId, compiled, frameTests);
      candidates = Int32Array.from(
        compiled.flatMap((rule, r) =>
          facts.stackHolds[r] &&
          (rule.match.in_backward === undefined || rule.match.in_backward === facts.inBackward)
            ? [r]
            : [],
        ),
      );
      candidatesByStack[stackId + 1] = candidates;
    }
    return candidates;
  };
  const categoryIds = device.details?.categoryId ?? null;
  const traceLength = device.traceLength;
  const shareBase = Math.max(1, traceLength);
  // A file's category texts are few and shared by many allocations (and may be long): each is
  // read once, and each rule's fileCategory tested once per text, not once per allocation.
  const fromFileById = new Map<number, Category | null>();
  const ruleTestsById = compiled.map(() => new Map<number, boolean>());
  for (let row = 0; row < table.count; row++) {
    const start = table.startEvent[row]!;
    const fileId = fileCategoryId(categoryIds, start);
    const fileText = fileId === NO_STRING ? null : (snapshot.strings?.[fileId] ?? null);
    if (fileText !== null) {
      let fromFile = fromFileById.get(fileId);
      if (fromFile === undefined) {
        fromFile = categoryOfFileText(fileText);
        fromFileById.set(fileId, fromFile);
      }
      if (fromFile !== null) {
        column[row] = CATEGORIES.indexOf(fromFile);
        continue;
      }
    }
    const candidates = candidatesOf(table.stackId[row]!);
    if (candidates.length === 0) continue;
    const end = table.endEvent[row]!;
    const aliveAtEnd = end >= traceLength ? 1 : 0;
    const madeBeforeTrace = start < 0 ? 1 : 0;
    const lifetime = Math.min(end, traceLength) - start;
    const share = lifetime / shareBase;
    for (let c = 0; c < candidates.length; c++) {
      const r = candidates[c]!;
      const rule = conditions[r]!;
      if (rule.fileCategory !== null) {
        if (fileText === null) continue;
        const tested = ruleTestsById[r]!;
        let matches = tested.get(fileId);
        if (matches === undefined) {
          matches = rule.fileCategory.test(fileText);
          tested.set(fileId, matches);
        }
        if (!matches) continue;
      }
      if (rule.aliveAtEnd !== EITHER && rule.aliveAtEnd !== aliveAtEnd) continue;
      if (rule.madeBeforeTrace !== EITHER && rule.madeBeforeTrace !== madeBeforeTrace) continue;
      if (lifetime < rule.minEvents || lifetime > rule.maxEvents) continue;
      if (share < rule.minShare || share > rule.maxShare) continue;
      column[row] = rule.category;
      break;
    }
  }
  return column;
}

/** The string id of the category the file gives the allocation made at `startEvent`, or NO_STRING. */
function fileCategoryId(categoryIds: Int32Array | null, startEvent: number): number {
  if (categoryIds === null || startEvent < 0) return NO_STRING;
  return categoryIds[startEvent] ?? NO_STRING;
}

/** "filename:line name": the text frame conditions (and the search box) test. */
export function frameSearchText(filename: string, line: number, name: string): string {
  return `${filename}:${line} ${name}`;
}

/**
 * Each frame condition's verdict on each frame, tested once per frame: stacks share their frames
 * (a frame is in hundreds of stacks), and the patterns run on RE2, linear but slower than RegExp.
 */
class FrameTests {
  private readonly verdicts: (Uint8Array | null)[];
  private readonly backward: Uint8Array;
  private texts: (string | undefined)[] = [];

  constructor(
    private readonly snapshot: Pick<AnalyzedSnapshot, 'frames'>,
    private readonly compiled: readonly CompiledRule[],
  ) {
    const count = snapshot.frames.name.length;
    // Per frame: 0 not tested yet, 1 holds, 2 does not.
    this.verdicts = compiled.map((rule) => (rule.frame === null ? null : new Uint8Array(count)));
    this.backward = new Uint8Array(count);
  }

  /** Whether rule `r`'s frame condition holds for frame `frameId`. */
  frameHolds(r: number, frameId: number): boolean {
    const verdicts = this.verdicts[r]!;
    if (verdicts[frameId] === 0)
      verdicts[frameId] = this.compiled[r]!.frame!.test(this.textOf(frameId)) ? 1 : 2;
    return verdicts[frameId] === 1;
  }

  inBackward(frameId: number): boolean {
    if (this.backward[frameId] === 0)
      this.backward[frameId] = isBackwardFrameText(this.textOf(frameId)) ? 1 : 2;
    return this.backward[frameId] === 1;
  }

  private textOf(frameId: number): string {
    let text = this.texts[frameId];
    if (text === undefined) {
      const frames = this.snapshot.frames;
      text = frameSearchText(
        frames.filename[frameId]!,
        frames.line[frameId]!,
        frames.name[frameId]!,
      );
      this.texts[frameId] = text;
    }
    return text;
  }
}

function stackFacts(
  snapshot: Pick<AnalyzedSnapshot, 'frames' | 'stacks'>,
  stackId: number,
  compiled: readonly CompiledRule[],
  frameTests: FrameTests,
): StackFacts {
  const frameIds = Array.from(stackFrameIds(snapshot, stackId));
  const label = stackLabel(snapshot, stackId);
  return {
    inBackward: frameIds.some((id) => frameTests.inBackward(id)),
    stackHolds: compiled.map(
      (rule, r) =>
        (rule.frame === null || frameIds.some((id) => frameTests.frameHolds(r, id))) &&
        (rule.label === null || (label !== null && rule.label.test(label))),
    ),
  };
}
