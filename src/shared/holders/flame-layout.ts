// Where each node of a flame tree sits in the icicle: x and width as fractions of the node shown
// as the root (the one the user zoomed into), depth below it. Nodes too narrow to see are left
// out (their bytes stay in their parent's width). Pure, unit-tested.

import { flameStepKey, type FlameNode } from './flame-tree';

/** Joins the steps of a path: never in a frame's name (which may hold '/', ';', spaces). */
export const PATH_SEPARATOR = '\u0001';

export interface FlameRect {
  node: FlameNode;
  /** Fractions of the root's width. */
  x: number;
  width: number;
  depth: number;
  /** The steps from the root ("frameId:name", see nodeAtPath) joined by PATH_SEPARATOR. */
  path: string;
}

/** The rectangles of `root` and its descendants, at most `maxDepth` levels, none under `minWidth`. */
export function layoutFlame(root: FlameNode, minWidth: number, maxDepth = 64): FlameRect[] {
  const rects: FlameRect[] = [];
  const visit = (node: FlameNode, x: number, width: number, depth: number, path: string): void => {
    rects.push({ node, x, width, depth, path });
    if (depth >= maxDepth || node.bytes <= 0) return;
    let childX = x;
    for (const child of node.children) {
      const childWidth = (width * child.bytes) / node.bytes;
      if (childWidth >= minWidth)
        visit(
          child,
          childX,
          childWidth,
          depth + 1,
          `${path}${PATH_SEPARATOR}${flameStepKey(child)}`,
        );
      childX += childWidth;
    }
  };
  visit(root, 0, 1, 0, root.name);
  return rects;
}

/** The node at `path` (steps "frameId:name" from the root), or null when it is gone. */
export function nodeAtPath(root: FlameNode, path: readonly string[]): FlameNode | null {
  let node: FlameNode = root;
  for (const step of path) {
    const next = node.children.find((child) => flameStepKey(child) === step);
    if (next === undefined) return null;
    node = next;
  }
  return node;
}
