// Runs CPython from tests: it is the reference implementation of pickle, and python3 is on every
// machine this project builds on (CI included).

import { execFileSync } from 'node:child_process';

/** Runs a Python program and returns its stdout as bytes. */
export function runPython(program: string, args: readonly string[] = []): Buffer {
  return execFileSync('python3', ['-c', program, ...args], { maxBuffer: 1 << 30 });
}

/** pickle.dumps of a Python expression, with the given protocol. */
export function pythonPickle(expression: string, protocol = 4): Uint8Array {
  const program = `import sys, pickle, collections\nsys.stdout.buffer.write(pickle.dumps(${expression}, protocol=${protocol}))`;
  return new Uint8Array(runPython(program));
}
