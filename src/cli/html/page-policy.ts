// The Content-Security-Policy of the one-file page `allocscope html` writes. Its viewer is inline
// (one <script>, one <style>), so the policy names each by its SHA-256 hash instead of allowing
// inline code at large: the page runs its own code and nothing else, reaches no network
// (default-src 'none'; a page opened from disk would otherwise read file:// neighbours through
// 'self'), and starts its decoder only as a blob: worker. Computed when the template is built
// (vite.html.config.ts) and checked again before a page is written (a template whose code changed
// after its hashes were taken would be a blank page).

import { createHash } from 'node:crypto';

/** Inline elements a policy must allow by hash: executable scripts and style elements. */
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style>/gi;
const POLICY_META = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/;

/** A script element's type attribute that browsers run (absent, JavaScript or a module). */
function runsAsScript(attributes: string): boolean {
  const type = /\btype\s*=\s*"([^"]*)"/i.exec(attributes)?.[1]?.trim().toLowerCase();
  if (/\bsrc\s*=/i.test(attributes)) return false;
  return type === undefined || type === '' || type === 'module' || type.endsWith('javascript');
}

/** "'sha256-…'": the CSP source for an inline element's text, exactly as the browser hashes it. */
export function cspHashOf(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export interface InlineHashes {
  readonly scripts: readonly string[];
  readonly styles: readonly string[];
}

/** The hashes of the page's inline scripts (the executable ones) and style elements. */
export function inlineHashesOf(html: string): InlineHashes {
  const scripts = [...html.matchAll(INLINE_SCRIPT)]
    .filter((match) => runsAsScript(match[1]!))
    .map((match) => cspHashOf(match[2]!));
  const styles = [...html.matchAll(INLINE_STYLE)].map((match) => cspHashOf(match[1]!));
  return { scripts, styles };
}

/** The policy for a page whose only code is the inline elements hashed here. */
export function reportPolicyOf(hashes: InlineHashes): string {
  return [
    "default-src 'none'",
    `script-src ${hashes.scripts.join(' ') || "'none'"}`,
    `style-src ${hashes.styles.join(' ') || "'none'"}`,
    // Canvas exports and the favicon are data: and blob: URLs made by the page itself.
    'img-src data: blob:',
    // The decoder is an inline worker (page-decoder.ts): a blob: URL of code already in the page.
    'worker-src blob:',
    // Saving an export reads back a blob: or data: URL the page made; nothing else.
    'connect-src blob: data:',
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The page with its policy meta element rewritten to allow exactly its inline code. */
export function withReportPolicy(html: string): string {
  if (!POLICY_META.test(html)) throw new Error('the viewer page has no Content-Security-Policy');
  const policy = reportPolicyOf(inlineHashesOf(html));
  return html.replace(POLICY_META, (_match, start: string, _old: string, end: string) => {
    return start + policy + end;
  });
}

/** The policy the page's meta element declares, or null. */
export function declaredPolicyOf(html: string): string | null {
  return POLICY_META.exec(html)?.[2] ?? null;
}
