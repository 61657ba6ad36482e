// The folder order of src/shared is enforced by lint (eslint.config.js, SHARED_LAYERS): an import
// against it is an error, one along it is not.

import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: process.cwd() });
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
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

  it('accepts imports of earlier layers', async () => {
    expect(
      await restrictedImports(
        'src/shared/state/memory-figures.ts',
        "import { formatBytes } from '../format/units';\nimport type { AnalyzedDevice } from '../analyzed/analyzed-snapshot';\nexport type X = AnalyzedDevice;\nexport const f = formatBytes;\n",
      ),
    ).toEqual([]);
  });
});
