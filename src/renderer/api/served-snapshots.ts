// The page as `allocscope serve` serves it: the server puts a marker in the page (a <meta>), and
// only then does the page ask for the manifest beside it and open every file it lists, each
// fetched by the decode worker as a URL (as the demo is), a folder's files as one folder of ranks.
// The static web build and a page from disk have no marker: they ask for nothing.

import {
  SERVED_MARKER_NAME,
  servedManifestSchema,
  type ServedManifest,
} from '@shared/report/served-manifest';
import type { PageDecodeOptions, PageDecodeSource } from './page-decoder';

/** The manifest's URL when the page is served by `allocscope serve`, else null. */
export function servedManifestUrl(document: Document, location: Location): string | null {
  const marker = document.querySelector<HTMLMetaElement>(`meta[name="${SERVED_MARKER_NAME}"]`);
  const file = marker?.content ?? '';
  // Only a plain name beside the page: the marker is ours, but no reason to trust more.
  if (!/^[a-z0-9._-]+\.json$/i.test(file)) return null;
  return new URL(`./${file}`, location.href).href;
}

/** What the page opens: a decode per file, with where it is served from. */
export interface ServedOpen {
  readonly source: PageDecodeSource;
  readonly options: PageDecodeOptions;
}

/**
 * The decodes the manifest asks for, in its order: a folder's files (two or more) share one
 * rank group, so they open on a Ranks page of their own, as a folder the user picks does.
 */
export function servedOpens(manifest: ServedManifest, pageUrl: string): ServedOpen[] {
  const groupSizes = new Map<string, number>();
  for (const file of manifest.files)
    if (file.group !== null) groupSizes.set(file.group, (groupSizes.get(file.group) ?? 0) + 1);
  const groupIds = new Map([...groupSizes.keys()].map((group, index) => [group, index]));
  return manifest.files.map((file) => {
    const grouped = file.group !== null && groupSizes.get(file.group)! >= 2;
    return {
      source: {
        kind: 'url',
        url: new URL(`./files/${file.id}`, pageUrl).href,
        fileName: file.name,
        sizeBytes: file.sizeBytes,
        // serve answers ranges of every file it lists (a large one may decode in parts).
        seekable: true,
      },
      options: {
        rankGroup: grouped ? `served-folder-${groupIds.get(file.group!)}` : null,
        servedFrom: `${manifest.host}:${file.path}`,
      },
    };
  });
}

/** The manifest, checked; an Error with one line for the user when it cannot be had. */
export async function fetchServedManifest(
  url: string,
  fetchUrl: (url: string) => Promise<Response> = (target) => fetch(target),
): Promise<ServedManifest> {
  let response: Response;
  try {
    response = await fetchUrl(url);
  } catch (error) {
    throw new Error(`could not ask allocscope serve for its files (${errorText(error)})`);
  }
  if (!response.ok)
    throw new Error(`allocscope serve answered ${response.status} for its list of files`);
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    json = null;
  }
  const manifest = servedManifestSchema.safeParse(json);
  if (!manifest.success)
    throw new Error('allocscope serve sent a list of files this page cannot read');
  return manifest.data;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
