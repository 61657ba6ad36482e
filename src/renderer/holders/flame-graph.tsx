// The live memory of one moment as an icicle: the top row is every active byte, each row below
// splits its parent by frame (outermost first). Hover shows bytes, share and allocations; a click
// zooms into a node (the path above it stays as buttons to go back up).

import { useMemo, type JSX } from 'react';
import { formatBytes, formatExactBytes } from '@shared/format/units';
import { flameStepKey, type FlameNode } from '@shared/holders/flame-tree';
import { layoutFlame, nodeAtPath, PATH_SEPARATOR } from '@shared/holders/flame-layout';

/** Nodes narrower than this share of the shown root are not drawn (about a pixel at 1,000 px). */
const MIN_WIDTH = 0.001;
const ROW_PX = 20;

export interface FlameGraphProps {
  tree: FlameNode;
  /** The moment's active bytes: what shares are of. */
  totalBytes: number;
  /** The node shown as the root (steps "frameId:name" from the tree's root); [] for the root. */
  zoomPath: readonly string[];
  onZoom: (path: string[]) => void;
  /** What the graph says when the zoomed node has nothing under it (the search may be why). */
  missingText?: string;
}

export function FlameGraph({
  tree,
  totalBytes,
  zoomPath,
  onZoom,
  missingText,
}: FlameGraphProps): JSX.Element {
  const setZoomPath = onZoom;
  // A zoomed node with nothing alive below it at this moment keeps its path (the filter holds);
  // the graph then says so instead of drawing.
  const zoomed = nodeAtPath(tree, zoomPath);
  const missing = zoomed === null && zoomPath.length > 0;
  const root = zoomed ?? tree;
  const path = zoomPath;
  const rects = useMemo(() => (missing ? [] : layoutFlame(root, MIN_WIDTH)), [root, missing]);
  const depth = rects.reduce((deepest, rect) => Math.max(deepest, rect.depth), 0);
  const share = (bytes: number): string =>
    totalBytes > 0 ? `${((100 * bytes) / totalBytes).toFixed(1)}%` : '–';
  const crumbs: { name: string; at: string[] }[] = [{ name: tree.name, at: [] }];
  let node = tree;
  path.forEach((step, i) => {
    const child = node.children.find((c) => flameStepKey(c) === step);
    if (child !== undefined) node = child;
    // A step no longer in the tree is named from its key ("frameId:name").
    const name = child?.name ?? step.slice(step.indexOf(':') + 1);
    crumbs.push({ name, at: path.slice(0, i + 1) });
  });
  return (
    <div className="flame" data-testid="flame-graph" data-root-bytes={tree.bytes}>
      <div className="flame-crumbs">
        {crumbs.map((crumb, i) => (
          <button
            type="button"
            key={crumb.at.join(PATH_SEPARATOR)}
            disabled={i === crumbs.length - 1}
            onClick={() => setZoomPath(crumb.at)}
          >
            {crumb.name}
          </button>
        ))}
      </div>
      {missing && (
        <p className="holders-empty" data-testid="flame-missing">
          {missingText ?? 'Nothing below this node is alive at this moment.'}
        </p>
      )}
      <div className="flame-scroll">
        <div className="flame-canvas" style={{ height: (depth + 1) * ROW_PX }}>
          {rects.map((rect) => {
            const relative = rect.path.split(PATH_SEPARATOR).slice(1);
            return (
              <button
                type="button"
                key={rect.path}
                className={
                  rect.node.frameId < 0 && rect.depth > 0 ? 'flame-node no-stack' : 'flame-node'
                }
                data-bytes={rect.node.bytes}
                data-depth={rect.depth}
                style={{
                  left: `${rect.x * 100}%`,
                  width: `${rect.width * 100}%`,
                  top: rect.depth * ROW_PX,
                  height: ROW_PX - 1,
                }}
                title={`${rect.node.name}\n${formatBytes(rect.node.bytes)} (${formatExactBytes(rect.node.bytes)} bytes), ${share(rect.node.bytes)} of the active memory, ${rect.node.allocations.toLocaleString('en-US')} allocations`}
                onClick={() =>
                  setZoomPath(rect.depth === 0 ? path.slice(0, -1) : [...path, ...relative])
                }
              >
                {rect.node.name}
              </button>
            );
          })}
        </div>
      </div>
    </div>
  );
}
