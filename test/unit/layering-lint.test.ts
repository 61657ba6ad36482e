// Layering rules that lint enforces (eslint.config.js): each folder of src/shared imports only the
// layers before it (SHARED_LAYERS), each folder of src/renderer only its floor and the floors
// below (RENDERER_FLOORS), the page never reads a JSON document's snake_case fields, and it keeps
// no module-level caches.

import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

async function messagesOf(rule: string, filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: process.cwd() });
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((message) => message.ruleId === rule)
    .map((message) => message.message);
}

function restrictedImports(filePath: string, code: string): Promise<string[]> {
  return messagesOf('no-restricted-imports', filePath, code);
}

describe('the layers of src/shared', () => {
  it('rejects an import of a later layer', async () => {
    const messages = await restrictedImports(
      'src/shared/analysis/curve-stats.ts',
      "import { svgDocument } from '../render/svg-markup';\nexport const x = svgDocument;\n",
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/src\/shared\/analysis may not import from src\/shared\/render/);
  });

  it('rejects the same import through the @shared alias, and between the two top siblings', async () => {
    expect(
      await restrictedImports(
        'src/shared/analyzed/moments.ts',
        "import type { SummaryDocument } from '@shared/report/summary-report';\nexport type X = SummaryDocument;\n",
      ),
    ).toHaveLength(1);
    expect(
      await restrictedImports(
        'src/shared/render/svg-markup.ts',
        "import { framesOfStack } from '../report/frames';\nexport const y = framesOfStack;\n",
      ),
    ).toHaveLength(1);
  });

  it('keeps who-holds-it below the OOM explainer and above the chart geometry', async () => {
    expect(
      await restrictedImports(
        'src/shared/holders/group-by.ts',
        "import { verdictText } from '../oom/oom-explainer';\nexport const v = verdictText;\n",
      ),
    ).toHaveLength(1);
    expect(
      await restrictedImports(
        'src/shared/oom/oom-explainer.ts',
        "import { aliveRowsAt } from '../holders/alive-rows';\nexport const a = aliveRowsAt;\n",
      ),
    ).toEqual([]);
  });

  it('accepts imports of earlier layers', async () => {
    expect(
      await restrictedImports(
        'src/shared/state/memory-figures.ts',
        "import { formatBytes } from '../format/units';\nimport type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';\nexport type X = AnalyzedDevice;\nexport const f = formatBytes;\n",
      ),
    ).toEqual([]);
  });
});

describe('the floors of src/renderer', () => {
  it('rejects a view importing the shell, naming the floors in order', async () => {
    const messages = await restrictedImports(
      'src/renderer/timeline/timeline-input.ts',
      "import { LOWER_VIEWS } from '../shell/lower-views';\nexport const l = LOWER_VIEWS;\n",
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/The views floor .* may not import from src\/renderer\/shell/);
    expect(messages[0]).toContain(
      'workers (workers) → platform (api) → widgets (ui, canvas) → state (state) → views (',
    );
  });

  it('rejects the widgets importing a view or the state, and the state importing a view', async () => {
    expect(
      await restrictedImports(
        'src/renderer/ui/view-boundary.tsx',
        "import { HoldersView } from '../holders/holders-view';\nexport const h = HoldersView;\n",
      ),
    ).toHaveLength(1);
    expect(
      await restrictedImports(
        'src/renderer/canvas/canvas-host.ts',
        "import type { AppState } from '../state/app-state';\nexport type A = AppState;\n",
      ),
    ).toHaveLength(1);
    expect(
      await restrictedImports(
        'src/renderer/state/app-state.ts',
        "import { LOWER_VIEWS } from '../shell/lower-views';\nimport { TimelineView } from '../timeline/timeline-view';\nexport const l = [LOWER_VIEWS, TimelineView];\n",
      ),
    ).toHaveLength(2);
  });

  it('accepts imports of its own floor and the floors below', async () => {
    expect(
      await restrictedImports(
        'src/renderer/segments/segments-view.tsx',
        "import { keysOf } from '../state/keyboard-shortcuts';\nimport { CanvasHost } from '../canvas/canvas-host';\nimport { stackRows } from '../allocations/stack-rows';\nexport const s = [keysOf, CanvasHost, stackRows];\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImports(
        'src/renderer/shell/device-content.tsx',
        "import { HoldersView } from '../holders/holders-view';\nexport const h = HoldersView;\n",
      ),
    ).toEqual([]);
  });
});

describe('the page', () => {
  it('never reads a snake_case field of a JSON document', async () => {
    const read = await messagesOf(
      'no-restricted-syntax',
      'src/renderer/shell/summary-strip.tsx',
      'export const f = (d: { summary: { active_bytes: number } }) => d.summary.active_bytes;\n',
    );
    expect(read).toHaveLength(1);
    expect(read[0]).toMatch(/snake_case field is a JSON document's/);
    expect(
      await messagesOf(
        'no-restricted-syntax',
        'src/renderer/shell/summary-strip.tsx',
        'export const f = (d: { figures: { traceEntries: number } }) => d.figures.traceEntries;\n',
      ),
    ).toEqual([]);
  });

  it('keeps no module-level cache: derived data lives with what it derives from', async () => {
    const planted = await messagesOf(
      'no-restricted-syntax',
      'src/renderer/timeline/timeline-pictures.ts',
      'const colorsOfPlot = new WeakMap<object, Int16Array>();\nexport const f = (p: object) => colorsOfPlot.get(p);\n',
    );
    expect(planted).toHaveLength(1);
    expect(planted[0]).toMatch(/No module-level cache in src\/renderer/);
    expect(
      await messagesOf(
        'no-restricted-syntax',
        'src/renderer/holders/holders-view.tsx',
        'export const f = (keys: string[]) => new Map(keys.map((k) => [k, k.length]));\n',
      ),
    ).toEqual([]);
  });
});
