import { describe, expect, it } from 'vitest';
import { codeSpans } from './inline-code';

describe('codeSpans', () => {
  it('marks the parts between backticks as code', () => {
    expect(codeSpans('see `torch.cuda.memory_allocated()` and `nvidia-smi`.')).toEqual([
      { text: 'see ', code: false },
      { text: 'torch.cuda.memory_allocated()', code: true },
      { text: ' and ', code: false },
      { text: 'nvidia-smi', code: true },
      { text: '.', code: false },
    ]);
    expect(codeSpans('plain')).toEqual([{ text: 'plain', code: false }]);
  });
});
