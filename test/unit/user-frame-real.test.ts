// The top-user-frame rule (src/shared/analysis/user-frame.ts) on every stack of the 12 real
// snapshots: a label of at most 100 characters, never an object file or a shared library, and,
// where the stack holds a frame of the user's own code, that frame, never PyTorch's. "The user's
// own code" is decided here on its own (a Python file outside the Python installation, PyTorch and
// torch.compile's output), not with the rule's helpers.

import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_LABEL_LENGTH, stackLabelOfStack } from '@shared/analysis/user-frame';
import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import { frameAt, stackFrameIds, type SourceFrame } from '@shared/snapshot/stack-source';
import { analyzeFile } from '../support/analyzed';
import { realSnapshotPaths } from '../support/real-snapshots';
import { writtenByTheUser } from '../support/user-code';

function framesOf(snapshot: AnalyzedSnapshot, stackId: number): SourceFrame[] {
  return Array.from(stackFrameIds(snapshot, stackId), (frameId) =>
    frameAt(snapshot.frames, frameId),
  );
}

const NATIVE_BINARY = /\.(o|so(\.\d+)*)$/;
const FRAMEWORK_TEXT = /(^|[^\w])(torch\/|c10::|at::)|^\?\?/;

describe.each(realSnapshotPaths().map((path) => [basename(path), path]))('%s', (_name, path) => {
  it('labels every stack by the rule', async () => {
    const snapshot = await analyzeFile(path);
    const stackCount = snapshot.stacks.offsets.length - 1;
    let withUserCode = 0;
    for (let stackId = 0; stackId < stackCount; stackId++) {
      const frames = framesOf(snapshot, stackId);
      const label = stackLabelOfStack(snapshot, stackId);
      if (frames.length === 0) {
        expect(label).toBeNull();
        continue;
      }
      expect(label, `stack ${stackId}`).not.toBeNull();
      const { index, text, kind } = label!;
      const chosen = frames[index]!;
      const where = `stack ${stackId}: ${text}`;
      expect(text.length, where).toBeGreaterThan(0);
      expect(text.length, where).toBeLessThanOrEqual(MAX_LABEL_LENGTH);
      expect(NATIVE_BINARY.test(chosen.filename), where).toBe(false);
      expect(chosen.name, where).not.toBe('??');
      // No template arguments or parameter lists of C++ signatures (Python's `<module>` is a name).
      expect(/[<(]/.test(text.replace(/<[a-z]+>/g, '')), where).toBe(false);
      const innermostUser = frames.findIndex(writtenByTheUser);
      if (innermostUser >= 0) {
        withUserCode++;
        expect(kind, where).toBe('user');
        expect(index, where).toBe(innermostUser);
        expect(FRAMEWORK_TEXT.test(text), where).toBe(false);
        // The label names that frame: its file's last part, its line and its function.
        const file = chosen.filename.split('/').pop()!;
        expect(text.endsWith(`${file}:${chosen.line} ${chosen.name}`), where).toBe(true);
      } else {
        expect(kind, where).not.toBe('user');
      }
    }
    // The fixtures' stacks mostly reach user code (the one file with no stacks excepted).
    if (stackCount > 0) expect(withUserCode).toBeGreaterThan(0);
  });
});
