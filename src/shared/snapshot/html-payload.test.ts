import { describe, expect, it } from 'vitest';
import { chunksOf } from '../../../test/support/analyzed';
import { pickleFromHtml } from './html-payload';

const encoder = new TextEncoder();

function page(pickle: Uint8Array, before = ''): Uint8Array {
  return encoder.encode(
    `<!DOCTYPE html>\n<html>${before}<script>const local_files = [{"name": "snapshot.pickle", "base64": "${Buffer.from(pickle).toString('base64')}"}];</script></html>\n`,
  );
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: number[] = [];
  for await (const chunk of source) parts.push(...chunk);
  return Uint8Array.from(parts);
}

describe('pickleFromHtml', () => {
  const pickle = Uint8Array.from({ length: 3000 }, (_, i) => (i === 0 ? 0x80 : (i * 31) & 0xff));

  it('streams the embedded pickle out of the page, however the page is cut', async () => {
    for (const size of [1, 7, 100, 1 << 16]) {
      expect(await collect(pickleFromHtml(chunksOf(page(pickle), size)))).toEqual(pickle);
    }
  });

  it('stops looking for the snapshot after the first MiB', async () => {
    const late = page(pickle, ' '.repeat(1 << 20));
    await expect(collect(pickleFromHtml(chunksOf(late, 1 << 16)))).rejects.toThrow(
      /an HTML page without an embedded snapshot/,
    );
  });

  it("judges a marker at the first MiB's edge the same in chunks of every size", async () => {
    // The key starting just before, at and just after the MiB (the fuzz campaign's case: a key at
    // 1,048,570 was found in irregular chunks only, whose last one reached past the MiB).
    const prefix =
      '<!DOCTYPE html>\n<html>'.length +
      '<script>const local_files = [{"name": "snapshot.pickle", '.length;
    for (const keyAt of [(1 << 20) - 8, (1 << 20) - 1, 1 << 20]) {
      const late = page(pickle, ' '.repeat(keyAt - prefix));
      expect(new TextDecoder().decode(late.subarray(keyAt, keyAt + 8))).toBe('"base64"');
      const verdicts = new Set<string>();
      for (const size of [7, 1000, 65_536, 1 << 20, 3 << 20]) {
        verdicts.add(
          await collect(pickleFromHtml(chunksOf(late, size))).then(
            (bytes) => (bytes.length === pickle.length ? 'opened' : 'other'),
            (error: Error) => error.message,
          ),
        );
      }
      expect([...verdicts]).toEqual([
        keyAt < 1 << 20 ? 'opened' : expect.stringMatching(/without an embedded snapshot/),
      ]);
    }
  });

  it('says when the page ends inside the payload, or the payload is not a pickle or not base64', async () => {
    const whole = page(pickle);
    await expect(collect(pickleFromHtml(chunksOf(whole.subarray(0, 500), 64)))).rejects.toThrow(
      /ends inside the embedded snapshot/,
    );
    await expect(
      collect(pickleFromHtml(chunksOf(page(encoder.encode('hello')), 64))),
    ).rejects.toThrow(/embedded in the HTML page is not a pickle/);
    const bad = encoder.encode('<html>"base64": "gAS*"</html>');
    await expect(collect(pickleFromHtml(chunksOf(bad, 64)))).rejects.toThrow(/not valid base64/);
  });
});

describe('the payload marker', () => {
  const pickle = Uint8Array.from({ length: 300 }, (_, i) => (i === 0 ? 0x80 : (i * 7) & 0xff));

  it('is the "base64" key after "name", whatever mentions base64 earlier', async () => {
    for (const before of [
      '<!-- the snapshot below is embedded as base64 -->',
      '<!-- {"base64": "not this one"} -->',
      '<p>"base64"</p><p>"base64": "AAAA"</p>',
      `<script>// ${'"base64"'.repeat(10_000)}</script>`,
    ]) {
      for (const size of [1, 7, 1 << 16]) {
        expect(await collect(pickleFromHtml(chunksOf(page(pickle, before), size)))).toEqual(pickle);
      }
    }
  });

  it('falls back to a bare "base64" key when no page of _memory_viz is found', async () => {
    const bare = encoder.encode(
      `<html><script>x = {"base64": "${Buffer.from(pickle).toString('base64')}"}</script></html>`,
    );
    expect(await collect(pickleFromHtml(chunksOf(bare, 5)))).toEqual(pickle);
  });
});
