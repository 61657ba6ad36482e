import { describe, expect, it } from 'vitest';
import { SERVED_MANIFEST_SCHEMA, type ServedManifest } from '@shared/report/served-manifest';
import { fetchServedManifest, servedManifestUrl, servedOpens } from './served-snapshots';

const PAGE = 'http://127.0.0.1:7317/tok3n/';

function pageWith(content: string | null): Document {
  return {
    querySelector: () => (content === null ? null : { content }),
  } as unknown as Document;
}

const location = { href: PAGE } as Location;

const manifest: ServedManifest = {
  schema: SERVED_MANIFEST_SCHEMA,
  host: 'gpu-box',
  files: [
    { id: '0', name: 'a.pickle', path: '/runs/a.pickle', sizeBytes: 10, group: null },
    {
      id: '1',
      name: 'rank0.pickle',
      path: '/runs/job/rank0.pickle',
      sizeBytes: 20,
      group: '/runs/job',
    },
    {
      id: '2',
      name: 'rank1.pickle',
      path: '/runs/job/rank1.pickle',
      sizeBytes: 30,
      group: '/runs/job',
    },
    {
      id: '3',
      name: 'only.pickle',
      path: '/runs/one/only.pickle',
      sizeBytes: 40,
      group: '/runs/one',
    },
  ],
};

describe('served snapshots', () => {
  it('asks for the manifest only when the server marked the page', () => {
    expect(servedManifestUrl(pageWith(null), location)).toBeNull();
    expect(servedManifestUrl(pageWith('served.json'), location)).toBe(`${PAGE}served.json`);
    // A marker pointing anywhere but beside the page is not followed.
    for (const content of ['', '../x.json', 'https://elsewhere/x.json', '/served.json'])
      expect(servedManifestUrl(pageWith(content), location), content).toBeNull();
  });

  it('opens each file by its URL beside the page; a folder of two or more as one rank group', () => {
    const opens = servedOpens(manifest, PAGE);
    expect(opens.map((open) => open.source)).toEqual([
      { kind: 'url', url: `${PAGE}files/0`, fileName: 'a.pickle', sizeBytes: 10, seekable: true },
      {
        kind: 'url',
        url: `${PAGE}files/1`,
        fileName: 'rank0.pickle',
        sizeBytes: 20,
        seekable: true,
      },
      {
        kind: 'url',
        url: `${PAGE}files/2`,
        fileName: 'rank1.pickle',
        sizeBytes: 30,
        seekable: true,
      },
      {
        kind: 'url',
        url: `${PAGE}files/3`,
        fileName: 'only.pickle',
        sizeBytes: 40,
        seekable: true,
      },
    ]);
    const groups = opens.map((open) => open.options.rankGroup);
    expect(groups[0]).toBeNull();
    expect(groups[1]).not.toBeNull();
    expect(groups[2]).toBe(groups[1]);
    // One snapshot alone in its folder opens as itself, as a picked folder's does.
    expect(groups[3]).toBeNull();
    expect(opens.map((open) => open.options.servedFrom)).toEqual([
      'gpu-box:/runs/a.pickle',
      'gpu-box:/runs/job/rank0.pickle',
      'gpu-box:/runs/job/rank1.pickle',
      'gpu-box:/runs/one/only.pickle',
    ]);
  });

  it('checks the manifest, and says in one line when it cannot be had', async () => {
    const answer =
      (body: unknown, status = 200) =>
      async () =>
        new Response(JSON.stringify(body), { status });
    expect(await fetchServedManifest('x', answer(manifest))).toEqual(manifest);
    await expect(
      fetchServedManifest('x', answer({ ...manifest, schema: 'other' })),
    ).rejects.toThrow('allocscope serve sent a list of files this page cannot read');
    const badId = { ...manifest, files: [{ ...manifest.files[0]!, id: '../x' }] };
    await expect(fetchServedManifest('x', answer(badId))).rejects.toThrow('cannot read');
    await expect(fetchServedManifest('x', answer({}, 403))).rejects.toThrow(
      'allocscope serve answered 403 for its list of files',
    );
    await expect(
      fetchServedManifest('x', () => Promise.reject(new TypeError('Failed to fetch'))),
    ).rejects.toThrow('could not ask allocscope serve for its files (Failed to fetch)');
  });
});
