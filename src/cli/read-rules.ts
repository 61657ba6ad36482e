// `--rules FILE` of `top` and `render`: a categories rules file (allocscope.category-rules/1,
// docs/categories.md) read and checked through the shared schema; a bad one is a usage error.

import { readFile } from 'node:fs/promises';
import { parseCategoryRules, type CategoryRules } from '@shared/holders/category-rules';
import { UsageError } from './cli-options';

export async function readRules(path: string): Promise<CategoryRules> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UsageError(
      `--rules ${path}: ${error instanceof SyntaxError ? `not JSON (${error.message})` : 'cannot read it'}`,
    );
  }
  const parsed = parseCategoryRules(json);
  if (!parsed.ok) throw new UsageError(`--rules ${path}: ${parsed.message}`);
  return parsed.rules;
}
