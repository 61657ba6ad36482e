import { describe, expect, it } from 'vitest';
import type { FlameNode } from './flame-tree';
import { layoutFlame, nodeAtPath, PATH_SEPARATOR } from './flame-layout';

function node(name: string, bytes: number, children: FlameNode[] = []): FlameNode {
  const childBytes = children.reduce((sum, child) => sum + child.bytes, 0);
  return {
    name,
    frameId: name.charCodeAt(0),
    bytes,
    allocations: 1,
    selfBytes: bytes - childBytes,
    children,
    rows: [],
  };
}

const tree = node('root', 100, [node('a', 60, [node('c', 30)]), node('b', 39), node('d', 1)]);

describe('layoutFlame', () => {
  it('places children side by side in proportion to their bytes, largest first', () => {
    const rects = layoutFlame(tree, 0.001);
    const at = (name: string) => rects.find((rect) => rect.node.name === name)!;
    expect(at('root')).toMatchObject({ x: 0, width: 1, depth: 0 });
    expect(at('a')).toMatchObject({ x: 0, width: 0.6, depth: 1 });
    expect(at('b').x).toBeCloseTo(0.6);
    expect(at('b').width).toBeCloseTo(0.39);
    expect(at('c')).toMatchObject({ x: 0, width: 0.3, depth: 2 });
  });

  it('leaves out what is too narrow to see', () => {
    expect(layoutFlame(tree, 0.05).map((rect) => rect.node.name)).toEqual(['root', 'a', 'c', 'b']);
  });

  it('finds a node again by its path, whatever its name holds', () => {
    const slashed = node('root', 10, [node('x/y.py:1 f', 10)]);
    const rect = layoutFlame(slashed, 0.001)[1]!;
    expect(nodeAtPath(slashed, rect.path.split(PATH_SEPARATOR).slice(1))?.name).toBe('x/y.py:1 f');
    expect(nodeAtPath(tree, ['97:a', '99:c'])?.name).toBe('c');
    expect(nodeAtPath(tree, ['98:b', '99:c'])).toBeNull();
  });
});
