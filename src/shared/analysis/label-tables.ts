// The labels of a snapshot's stacks and what the label rule asks of its frames, computed where
// the snapshot is decoded and handed over with it: in the app, the decode worker labels every
// stack, so the page's thread never reads a frame's name (a file may hold names of megabytes:
// linear work, still too long for the thread that answers clicks). The page adopts the tables
// into the caches user-frame.ts reads (stackLabelOfStack, frameFactsOf).

import type { StackTable } from '../snapshot/model';
import type { StackSource } from '../snapshot/stack-source';
import {
  frameFactsOf,
  giveStackLabels,
  stackLabelOfStack,
  type StackLabel,
  type StackLabelKind,
} from './user-frame';

export interface FrameLabelTables {
  /** Per frame: the label rule's bits (FrameFacts.flags). */
  frameFlags: Uint16Array;
  /** Per frame: FrameFacts.shortLabel (at most SHORT_LABEL_CHARS). */
  shortLabels: string[];
  /** Per stack: the index of the labelled frame, -1 for a stack without frames. */
  labelIndex: Int32Array;
  /** Per stack: STACK_LABEL_KINDS index. */
  labelKind: Uint8Array;
  /** Per stack: index into labelTexts (labels repeat: each text once). */
  labelTextId: Uint32Array;
  labelTexts: string[];
}

const STACK_LABEL_KINDS: readonly StackLabelKind[] = [
  'user',
  'library',
  'autograd',
  'torch',
  'op',
  'native',
];

/** Every stack's label and every frame's facts (the decode worker, after analysis). */
export function frameLabelTablesOf(source: StackSource): FrameLabelTables {
  const stackCount = Math.max(0, source.stacks.offsets.length - 1);
  const facts = frameFactsOf(source.frames);
  const labelIndex = new Int32Array(stackCount).fill(-1);
  const labelKind = new Uint8Array(stackCount);
  const labelTextId = new Uint32Array(stackCount);
  const labelTexts: string[] = [];
  const textIds = new Map<string, number>();
  for (let stackId = 0; stackId < stackCount; stackId++) {
    const label = stackLabelOfStack(source, stackId);
    if (label === null) continue;
    labelIndex[stackId] = label.index;
    labelKind[stackId] = STACK_LABEL_KINDS.indexOf(label.kind);
    let id = textIds.get(label.text);
    if (id === undefined) {
      id = labelTexts.length;
      labelTexts.push(label.text);
      textIds.set(label.text, id);
    }
    labelTextId[stackId] = id;
  }
  const frameCount = source.frames.name.length;
  return {
    frameFlags: facts.allFlags().slice(),
    shortLabels: Array.from({ length: frameCount }, (_, frameId) => facts.shortLabel(frameId)),
    labelIndex,
    labelKind,
    labelTextId,
    labelTexts,
  };
}

/** Takes tables computed elsewhere as this thread's labels of `source`. */
export function adoptFrameLabelTables(source: StackSource, tables: FrameLabelTables): void {
  frameFactsOf(source.frames).seed(tables.frameFlags, tables.shortLabels);
  const stacks: StackTable = source.stacks;
  giveStackLabels(stacks, (stackId): StackLabel | null => {
    // -1: a stack without frames (or an id outside the table), which has no label.
    const index = tables.labelIndex[stackId] ?? -1;
    if (index < 0) return null;
    return {
      index,
      kind: STACK_LABEL_KINDS[tables.labelKind[stackId]!]!,
      text: tables.labelTexts[tables.labelTextId[stackId]!]!,
    };
  });
}
