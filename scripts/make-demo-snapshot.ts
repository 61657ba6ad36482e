// Writes resources/demo-snapshot.pickle, the snapshot behind "Open the demo snapshot": a few
// simulated training steps on one GPU that end in an out-of-memory error, with realistic stacks.
// Deterministic (fixed seed), so regenerating gives the same bytes.
//
//   npm run demo:generate

import { resolve } from 'node:path';
import { generateLargeSnapshot } from '../generators/snapshot/generate-large-snapshot';

// Run from the repository root (npm scripts are).
const DEMO_SNAPSHOT_PATH = resolve('resources/demo-snapshot.pickle');
const DEMO_BYTES = 1_500_000;

const result = generateLargeSnapshot(DEMO_SNAPSHOT_PATH, DEMO_BYTES, {
  seed: 20261122,
  devices: 1,
  stacks: 120,
});
process.stdout.write(
  `wrote ${result.path}: ${result.bytes} bytes, ${result.devices.map((d) => `device ${d.device}: ${d.traceEntries} entries ${JSON.stringify(d.actions)}`).join(', ')}\n`,
);
