// The policy of the `allocscope html` page: inline code allowed only by the hashes of the page's
// own script and style (checked here against WebCrypto's SHA-256 of each element's text, taken
// apart by the DOM-free reading below), nothing inline allowed at large, no network. The built
// template (the global setup builds it) is checked the same way; Chromium's own verdict is the
// e2e test's (test/e2e/html-report.spec.ts).

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { declaredPolicyOf, inlineHashesOf, withReportPolicy } from '../../src/cli/html/page-policy';

/** Where the built CLI finds it (run-html.ts: beside the bundle). */
const TEMPLATE_PATH = resolve(import.meta.dirname, '../../out/cli/assets/viewer.html');

async function webCryptoHash(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return `'sha256-${Buffer.from(digest).toString('base64')}'`;
}

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

const PAGE = `<!doctype html><html><head>
<meta http-equiv="Content-Security-Policy" content="default-src 'self'" />
<script type="module" crossorigin>console.log("a </scr" + "ipt> b")</script>
<style rel="stylesheet">body { color: red }</style>
</head><body>
<script>var plain = 1;</script>
<script type="application/json" id="x">{"not":"code"}</script>
<script type="application/octet-stream" data-allocscope-chunk="0">AAAA</script>
<script src="./ignored.js"></script>
</body></html>`;

describe('the page policy', () => {
  it('allows exactly the executable inline scripts and the style elements, by hash', async () => {
    const policy = declaredPolicyOf(withReportPolicy(PAGE))!;
    const parsed = directives(policy);
    expect(parsed.get('script-src')!.sort()).toEqual(
      [
        await webCryptoHash('console.log("a </scr" + "ipt> b")'),
        await webCryptoHash('var plain = 1;'),
      ].sort(),
    );
    expect(parsed.get('style-src')).toEqual([await webCryptoHash('body { color: red }')]);
    expect(parsed.get('default-src')).toEqual(["'none'"]);
    expect(parsed.get('worker-src')).toEqual(['blob:']);
    expect(parsed.get('connect-src')).toEqual(['blob:', 'data:']);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|'self'|https?:|\*/);
  });

  it('the built template declares the hashes of its own inline code', async () => {
    const template = readFileSync(TEMPLATE_PATH, 'utf8');
    const scripts = [...template.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    // One script: the viewer, all of it (its worker inside, as a blob: source).
    expect(scripts).toHaveLength(1);
    expect(scripts[0]![1]).toContain('type="module"');
    const styles = [...template.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)];
    expect(styles).toHaveLength(1);
    const parsed = directives(declaredPolicyOf(template)!);
    expect(parsed.get('script-src')).toEqual([await webCryptoHash(scripts[0]![2]!)]);
    expect(parsed.get('style-src')).toEqual([await webCryptoHash(styles[0]![1]!)]);
    expect(inlineHashesOf(template).scripts).toEqual(parsed.get('script-src'));
    // React's production build, without the paths of the machine that built it.
    expect(template).not.toContain('jsxDEV');
    expect(template).not.toContain(resolve(import.meta.dirname, '../..'));
    // Nothing is fetched from beside the page: no relative file the page would load.
    expect(template).not.toMatch(/(?:src|href)="\.\//);
    expect(template).not.toContain('./favicon.svg');
  });
});
