// What `allocscope serve` serves, as the page reads it (`served.json` beside the page): the
// machine's name and each file it may fetch, by id (never by path: `files/<id>`). The server
// writes it, the page checks it with the same schema before it opens anything.

import { z } from 'zod';

export const SERVED_MANIFEST_SCHEMA = 'allocscope.served/1';

export { SERVED_MANIFEST_FILE, SERVED_MARKER_NAME } from './served-marker';

/** Ids are small decimal numbers: `files/<id>` names nothing else. */
export const SERVED_FILE_ID = /^\d{1,6}$/;

const servedFileSchema = z.strictObject({
  id: z.string().regex(SERVED_FILE_ID),
  /** The file's own name, as a tab shows it. */
  name: z.string().min(1).max(4096),
  /** Its absolute path on the serving machine, as named there (shown, never requested). */
  path: z.string().min(1).max(65_536),
  /** Its size when the server listed it (the response's Content-Length is the truth). */
  sizeBytes: z.number().int().nonnegative(),
  /** The folder it was found in (absolute path), or null for a file named on its own. */
  group: z.string().min(1).max(65_536).nullable(),
});

export const servedManifestSchema = z.strictObject({
  schema: z.literal(SERVED_MANIFEST_SCHEMA),
  /** The serving machine's host name. */
  host: z.string().max(1024),
  files: z.array(servedFileSchema).max(100_000),
});

export type ServedFile = z.infer<typeof servedFileSchema>;
export type ServedManifest = z.infer<typeof servedManifestSchema>;
