// The part of csv-stringify's sync API the page uses (csv-format.ts), typed for the page's
// typecheck: tsconfig.web.json maps `csv-stringify/browser/esm/sync` here because the package's
// own types begin with `/// <reference types="node" />`, which would make Node's globals
// (process, Buffer) look available to every file of the page. Node configs use the package's.

export interface CastingContext {
  readonly column?: number | string;
  readonly header: boolean;
  readonly index: number;
  readonly records: number;
}

export interface Options {
  record_delimiter?: string;
  quote_record_delimiter?: boolean;
  eof?: boolean;
  escape_formulas?: boolean;
  cast?: {
    number?: (value: number, context: CastingContext) => string;
    boolean?: (value: boolean, context: CastingContext) => string;
  };
}

export function stringify(input: unknown[], options?: Options): string;
