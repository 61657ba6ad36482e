// Saves the inputs behind defects under test/fuzz/findings/ (git-ignored): the bytes as a .pickle
// (whatever the container, so tools and the CLI open them as they are) and a .txt saying what
// went wrong and how to replay it.

import type { FuzzProfileName } from './corpus';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { FuzzCase } from './mutators';
import type { Defect } from './oracle';

// Two levels below the repository root both here (test/fuzz) and in the built runner (out/fuzz).
const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const FINDINGS_DIR = join(REPO_ROOT, 'test/fuzz/findings');

export interface Finding {
  defect: Defect;
  fuzzCase: Pick<FuzzCase, 'index' | 'mutator' | 'seed' | 'note'>;
  runSeed: number;
  bytes: Uint8Array;
  /** The input before minimization, when `bytes` is minimized. */
  originalBytes?: number;
  /** The corpus profile the case was generated with (cases differ between profiles). */
  profile: FuzzProfileName;
}

function slug(text: string): string {
  return text
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()
    .slice(0, 40);
}

/** Writes the finding; returns the .pickle's path relative to the repository root. */
export function saveFinding(finding: Finding): string {
  mkdirSync(FINDINGS_DIR, { recursive: true });
  const { defect, fuzzCase, runSeed } = finding;
  const base = `${slug(defect.check)}-${slug(fuzzCase.mutator)}-seed${runSeed}-case${fuzzCase.index}`;
  const file = join(FINDINGS_DIR, `${base}.pickle`);
  writeFileSync(file, finding.bytes);
  const path = relative(REPO_ROOT, file);
  const lines = [
    `defect:    ${defect.check}`,
    `message:   ${defect.message}`,
    `mutator:   ${fuzzCase.mutator} (${fuzzCase.note})`,
    `seed file: ${fuzzCase.seed}`,
    `case:      npm run fuzz -- --profile ${finding.profile} --seed ${runSeed} --case ${fuzzCase.index}`,
    `input:     ${path} (${finding.bytes.length} bytes${
      finding.originalBytes === undefined ? '' : `, minimized from ${finding.originalBytes}`
    })`,
    `replay:    npm run fuzz -- --replay ${path}`,
    '',
    defect.detail,
    '',
  ];
  writeFileSync(join(FINDINGS_DIR, `${base}.txt`), lines.join('\n'));
  return path;
}
