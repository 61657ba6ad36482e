// Entry of the long fuzz campaign (`npm run fuzz -- --cases 100000 [--seed N]`); the runner and
// the suite live in test/fuzz/ (see test/fuzz/runner.ts).

import { main } from '../test/fuzz/runner';

process.exitCode = await main(process.argv.slice(2));
