// How the page knows `allocscope serve` serves it, apart from the manifest's schema (which needs
// zod): the script that runs before the served page's bundle reads the marker and must stay small.

/** Where the page finds the manifest, relative to itself; also the marker's content. */
export const SERVED_MANIFEST_FILE = 'served.json';

/** The name of the `<meta>` the server puts in the page it serves: the page is served. */
export const SERVED_MARKER_NAME = 'allocscope-served';
