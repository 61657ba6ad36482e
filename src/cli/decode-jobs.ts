// How many threads decode one snapshot file (--jobs): as asked, or what this machine's cores and
// free memory allow (the decode-budget rule the app's workers and `ranks` follow too).

import { availableParallelism, freemem } from 'node:os';
import { partsForOneDecode } from '@shared/analyzed/decode-budget';

export function decodeJobs(requested: number | null, fileBytes: number): number {
  if (requested !== null) return requested;
  return partsForOneDecode(fileBytes, {
    cores: availableParallelism(),
    memoryBytes: freemem() * 0.7,
  });
}
