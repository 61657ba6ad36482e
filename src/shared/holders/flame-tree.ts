// The live memory at a moment as a tree (an icicle / flame graph): the root holds every active
// byte at that moment (the figure on the timeline), its children the outermost frames of the
// stacks, down to the innermost. Framework frames are left out by default, as the stack panel
// folds them: a path keeps the user's own frames and the frame the stack's label names
// ("autograd: AccumulateGrad", "empty_strided (C++)"), so backward and C++-only stacks still end
// in a readable node. Allocations without a stack are one node of their own.

import type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';
import { frameFactsOf, stackLabelOfStack } from '../analysis/user-frame';
import { NO_STACK_TEXT } from '../format/words';
import { stackFrameIds, type StackSource } from '../snapshot/stack-source';

export interface FlameNode {
  /** What the node shows: a frame in a short line, the label of a frame, or the root's name. */
  name: string;
  /** The frame (an id of the frame table); -1 for the root and the no-stack node. */
  frameId: number;
  bytes: number;
  allocations: number;
  /** Bytes of allocations whose path ends here. */
  selfBytes: number;
  /** Largest first. */
  children: FlameNode[];
  /** Rows of the allocation table below this node. */
  rows: number[];
}

export const FLAME_ROOT_NAME = 'all active memory';

export interface FlameOptions {
  /** Keep every frame (the stack panel's "show framework frames"). */
  showFramework?: boolean;
}

interface PathStep {
  frameId: number;
  name: string;
}

/** The path of a stack, outermost first. */
export function flamePath(
  snapshot: StackSource,
  stackId: number,
  showFramework = false,
): PathStep[] {
  const frameIds = stackFrameIds(snapshot, stackId);
  if (frameIds.length === 0) return [{ frameId: -1, name: NO_STACK_TEXT }];
  const label = stackLabelOfStack(snapshot, stackId);
  // Tested and worded once per frame, not once per stack it is in (frames may be megabytes long).
  const facts = frameFactsOf(snapshot.frames);
  const steps: PathStep[] = [];
  for (let i = frameIds.length - 1; i >= 0; i--) {
    const frameId = frameIds[i]!;
    const isLabel = label !== null && i === label.index;
    if (!showFramework && !isLabel && !facts.isUser(frameId)) continue;
    // The label's frame reads as the label does when it is not the user's code.
    const name =
      isLabel && label.kind !== 'user' && label.kind !== 'library' && label.kind !== 'torch'
        ? label.text
        : facts.shortLabel(frameId);
    steps.push({ frameId, name });
  }
  return steps;
}

interface BuildNode extends FlameNode {
  byKey: Map<string, BuildNode>;
}

function newNode(name: string, frameId: number): BuildNode {
  return {
    name,
    frameId,
    bytes: 0,
    allocations: 0,
    selfBytes: 0,
    children: [],
    rows: [],
    byKey: new Map(),
  };
}

/** The tree of `rows` (allocations alive at a moment). */
export function flameTree(
  snapshot: StackSource,
  device: Pick<AnalyzedDevice, 'allocations'>,
  rows: ArrayLike<number>,
  options: FlameOptions = {},
): FlameNode {
  const table = device.allocations;
  const root = newNode(FLAME_ROOT_NAME, -1);
  const paths = new Map<number, PathStep[]>();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const stackId = table.stackId[row]!;
    let path = paths.get(stackId);
    if (path === undefined) {
      path = flamePath(snapshot, stackId, options.showFramework ?? false);
      paths.set(stackId, path);
    }
    const bytes = table.sizeBytes[row]!;
    let node = root;
    node.bytes += bytes;
    node.allocations++;
    node.rows.push(row);
    for (const step of path) {
      const key = step.frameId < 0 ? `#${step.name}` : String(step.frameId);
      let child = node.byKey.get(key);
      if (child === undefined) {
        child = newNode(step.name, step.frameId);
        node.byKey.set(key, child);
      }
      node = child;
      node.bytes += bytes;
      node.allocations++;
      node.rows.push(row);
    }
    node.selfBytes += bytes;
  }
  return finish(root);
}

function finish(node: BuildNode): FlameNode {
  const children = [...node.byKey.values()]
    .map(finish)
    .sort((a, b) => b.bytes - a.bytes || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    name: node.name,
    frameId: node.frameId,
    bytes: node.bytes,
    allocations: node.allocations,
    selfBytes: node.selfBytes,
    children,
    rows: node.rows,
  };
}

/** A step of a path from the root, as flame-layout.ts names them: "frameId:name". */
export function flameStepKey(step: { frameId: number; name: string }): string {
  return `${step.frameId}:${step.name}`;
}

/**
 * Per allocation row: 1 when its stack's path begins with `steps` (the allocation is below that
 * node of the flame graph, at any moment); tested once per stack.
 */
export function rowsBelowNode(
  snapshot: StackSource,
  device: Pick<AnalyzedDevice, 'allocations'>,
  steps: readonly string[],
  showFramework = false,
): Uint8Array {
  const table = device.allocations;
  const mask = new Uint8Array(table.count);
  const below = new Map<number, boolean>();
  for (let row = 0; row < table.count; row++) {
    const stackId = table.stackId[row]!;
    let hit = below.get(stackId);
    if (hit === undefined) {
      const path = flamePath(snapshot, stackId, showFramework);
      hit =
        steps.length <= path.length && steps.every((step, i) => flameStepKey(path[i]!) === step);
      below.set(stackId, hit);
    }
    if (hit) mask[row] = 1;
  }
  return mask;
}
