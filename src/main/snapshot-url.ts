import type { CustomScheme } from 'electron';
import { z } from 'zod';

// The one way the page reaches a file on disk: `allocscope-file://snapshot/<token>`, where the
// token stands for one file the user chose (Open dialog, drop, Open Recent, command line, the
// demo). A URL is matched whole against one pattern, so there is no path in it to traverse, no
// query, no second spelling of the same file: anything else is not a snapshot URL.

export const SNAPSHOT_SCHEME = 'allocscope-file';

/**
 * What the scheme may do, registered before `ready`. Nothing more: no CSP bypass, no service
 * workers, no code cache, no media streaming.
 */
export const SNAPSHOT_SCHEME_PRIVILEGES = {
  /** Parsed like http (a host and a path): one canonical form per URL. */
  standard: true,
  /** Potentially trustworthy, so the page (a secure context) may fetch it. */
  secure: true,
  /** fetch() may load it: the page's decode worker reads the file as a fetch Response. */
  supportFetchAPI: true,
  /** The page (file://, an opaque origin) fetches it cross-origin, in CORS mode. */
  corsEnabled: true,
} as const satisfies NonNullable<CustomScheme['privileges']>;

/** A token is 32 random bytes, base64url without padding: 256 bits nobody can guess. */
export const SNAPSHOT_TOKEN_BYTES = 32;
const TOKEN_PATTERN = '[A-Za-z0-9_-]{43}';

export const snapshotTokenSchema = z.string().regex(new RegExp(`^${TOKEN_PATTERN}$`));

const SNAPSHOT_URL_PREFIX = `${SNAPSHOT_SCHEME}://snapshot/`;
const SNAPSHOT_URL_PATTERN = new RegExp(`^${SNAPSHOT_SCHEME}://snapshot/(${TOKEN_PATTERN})$`);

/** A snapshot URL as main hands it over and the page names it back: nothing else matches. */
export const snapshotUrlSchema = z
  .string()
  .max(SNAPSHOT_URL_PREFIX.length + 43)
  .regex(SNAPSHOT_URL_PATTERN, 'expected an allocscope-file://snapshot/<token> URL');

export function snapshotUrlOf(token: string): string {
  return SNAPSHOT_URL_PREFIX + snapshotTokenSchema.parse(token);
}

/** The token of a snapshot URL, or null for any other string. */
export function tokenOfSnapshotUrl(url: string): string | null {
  const parsed = snapshotUrlSchema.safeParse(url);
  return parsed.success ? (SNAPSHOT_URL_PATTERN.exec(parsed.data)?.[1] ?? null) : null;
}
