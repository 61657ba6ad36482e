import { randomBytes } from 'node:crypto';
import { SNAPSHOT_TOKEN_BYTES } from './snapshot-url';

// Which files the page may read, and only through which tokens. A token is issued for one file
// the user chose, to one page; it opens its file once (the first request uses it up), and is
// dropped when the page says the decode ended or when that page goes away (reload, closed).

/** A file handed to the page: its path stays in main, the page only sees the name. */
export interface HandedOverFile {
  readonly path: string;
  /** The name shown in the page (the demo's differs from its path). */
  readonly fileName: string;
}

export interface SnapshotTokenTable {
  /** A fresh token for `file`, handed to the page whose WebContents id is `owner`. */
  issue(file: HandedOverFile, owner: number): string;
  /** The file of a token that has not been used yet, using it up; null for anything else. */
  redeem(token: string): HandedOverFile | null;
  /** Drops a token of `owner`'s (its decode ended); its file, or null if it is not theirs. */
  release(token: string, owner: number): HandedOverFile | null;
  /** Drops every token of a page (reloaded or closed). */
  revoke(owner: number): void;
  /** Tokens alive now (tests). */
  readonly size: number;
}

/**
 * More than anyone opens at once: a folder of ranks hands over every file at once, and the page
 * fetches them a few at a time (src/renderer/api/page-decoder.ts), so a job of a thousand ranks
 * holds a thousand unused tokens for a while. A page that never reports back (a bug) cannot grow
 * the table past this: a used token goes first, the oldest unused one only when none is used.
 * An entry is a path and a name: the whole table stays well under a megabyte.
 */
export const MAX_LIVE_TOKENS = 4096;

export interface SnapshotTokenTableOptions {
  randomToken?: () => string;
  maxTokens?: number;
}

export function randomSnapshotToken(): string {
  return randomBytes(SNAPSHOT_TOKEN_BYTES).toString('base64url');
}

interface Entry {
  readonly file: HandedOverFile;
  readonly owner: number;
  redeemed: boolean;
}

export function createSnapshotTokenTable(
  options: SnapshotTokenTableOptions = {},
): SnapshotTokenTable {
  const randomToken = options.randomToken ?? randomSnapshotToken;
  const maxTokens = options.maxTokens ?? MAX_LIVE_TOKENS;
  // A Map iterates in insertion order: the first key is the oldest token.
  const entries = new Map<string, Entry>();

  /** The oldest used token, else the oldest one. */
  function evictable(): string {
    for (const [token, entry] of entries) if (entry.redeemed) return token;
    return entries.keys().next().value!;
  }

  return {
    issue(file, owner) {
      let token = randomToken();
      while (entries.has(token)) token = randomToken();
      entries.set(token, {
        file: { path: file.path, fileName: file.fileName },
        owner,
        redeemed: false,
      });
      while (entries.size > maxTokens) entries.delete(evictable());
      return token;
    },
    redeem(token) {
      const entry = entries.get(token);
      if (!entry || entry.redeemed) return null;
      entry.redeemed = true;
      return entry.file;
    },
    release(token, owner) {
      const entry = entries.get(token);
      if (!entry || entry.owner !== owner) return null;
      entries.delete(token);
      return entry.file;
    },
    revoke(owner) {
      for (const [token, entry] of entries) if (entry.owner === owner) entries.delete(token);
    },
    get size() {
      return entries.size;
    },
  };
}
