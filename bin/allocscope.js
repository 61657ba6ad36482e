#!/usr/bin/env node
// Entry point of the installed command; the CLI is bundled by `npm run build:cli` (part of `npm run build`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../out/cli/allocscope.js', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write('allocscope: the CLI is not built yet; run `npm run build:cli` first\n');
  process.exit(2);
}
await import(bundle);
