import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIGURE, GLOSSARY, glossaryMarkdown } from './glossary';

const README = new URL('../../../README.md', import.meta.url);

/** The bullet list of the README's "What the figures mean" section. */
function readmeGlossary(): string {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf('\n## What the figures mean\n');
  expect(start, 'README has a "What the figures mean" section').toBeGreaterThan(0);
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  return section
    .split('\n')
    .filter((line) => line.startsWith('- **'))
    .join('\n');
}

describe('the glossary', () => {
  it('is what the README lists, word for word', () => {
    expect(readmeGlossary()).toBe(glossaryMarkdown());
  });

  it('defines every figure name the views, exports and CLI use, once', () => {
    const terms = GLOSSARY.map((entry) => entry.term);
    expect(new Set(terms).size).toBe(terms.length);
    expect([...Object.values(FIGURE)].sort()).toEqual([...terms].sort());
  });

  it('ties the figures to what users compare them with', () => {
    const compare = (term: string): string =>
      GLOSSARY.find((entry) => entry.term === term)?.compareWith ?? '';
    expect(compare(FIGURE.allocated)).toContain('torch.cuda.memory_allocated()');
    expect(compare(FIGURE.reserved)).toContain('torch.cuda.memory_reserved()');
    expect(compare(FIGURE.activePeak)).toContain('torch.cuda.max_memory_allocated()');
    expect(compare(FIGURE.reservedPeak)).toContain('torch.cuda.max_memory_reserved()');
    expect(compare(FIGURE.active)).toContain('requested_bytes');
    expect(compare(FIGURE.inUse)).toContain('active_bytes');
    expect(GLOSSARY.find((entry) => entry.term === FIGURE.nvidiaSmi)?.meaning).toContain(
      'CUDA context',
    );
  });

  it('never names two different figures alike', () => {
    // "allocated" (memory_allocated, without pending frees) and "allocated + pending free"
    // (PyTorch's active_bytes) were once both "allocated".
    expect(FIGURE.allocated).not.toBe(FIGURE.inUse);
    expect(FIGURE.active).not.toBe(FIGURE.inUse);
    for (const entry of GLOSSARY) {
      expect(entry.meaning.length, entry.term).toBeGreaterThan(20);
      expect(entry.meaning.endsWith('.'), entry.term).toBe(true);
    }
  });
});
