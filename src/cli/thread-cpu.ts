// CPU seconds of the calling thread (Linux: /proc/thread-self/stat), for --timings of a decode in
// parts: on a shared machine the threads' own CPU says what the parts would take on idle cores,
// where wall time says only how busy the machine was. NaN where the kernel does not say.

import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

export function threadCpuSeconds(): number {
  try {
    const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat: the 12th and 13th after the command's name.
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}
