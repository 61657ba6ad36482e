// A frame's key ("cs336_systems/benchmark_nvtx.py:169 run_step") in the three parts a narrow
// table cell shortens differently: the path's folders (cut first), the file and line (always
// shown: without the line number the key is useless), the function (cut next). Keys that are no
// single frame (categories, sizes, ops, "a > b" stacks) have no parts and are cut at the end.

export interface FrameKeyParts {
  /** The folders before the file, with the last separator: "cs336_systems/". */
  head: string;
  /** "benchmark_nvtx.py:169". */
  fileLine: string;
  /** What follows the line number, its leading space included: " run_step". */
  rest: string;
}

export function frameKeyParts(key: string): FrameKeyParts | null {
  if (key.includes(' > ')) return null;
  // The first ":N" followed by a space or the end: the frame's line number.
  const line = /:\d+(?=\s|$)/.exec(key);
  if (line === null) return null;
  const end = line.index + line[0].length;
  const slash = Math.max(key.lastIndexOf('/', line.index), key.lastIndexOf('\\', line.index));
  if (slash + 1 >= line.index) return null;
  return {
    head: key.slice(0, slash + 1),
    fileLine: key.slice(slash + 1, end),
    rest: key.slice(end),
  };
}
