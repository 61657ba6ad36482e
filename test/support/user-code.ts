// The tests' own idea of "the user's code", judged by a frame's path alone and kept apart from
// the app's rule (src/shared/analysis/user-frame.ts), so tests of that rule have an independent
// oracle: a Python file outside PyTorch, installed packages, the standard library and the code
// torch.compile generates.

import type { SourceFrame } from '../../src/shared/snapshot/stack-source';

export function writtenByTheUser(frame: SourceFrame): boolean {
  const path = frame.filename;
  return (
    path.endsWith('.py') &&
    !/\/(site|dist)-packages\//.test(path) &&
    !/\/lib\/python3\.\d+\//.test(path) &&
    !path.includes('/torch/') &&
    !path.includes('/torchinductor_')
  );
}
