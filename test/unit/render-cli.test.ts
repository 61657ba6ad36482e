// `allocscope render` as users run it: PNG images of the requested size that show something,
// well-formed standalone SVG, and exit status 2 with one clear line on bad input.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCliOptions } from '../../src/cli/cli-options';
import { runCli } from '../support/cli';
import { realSnapshotPath } from '../support/real-snapshots';

const DEMO = resolve(import.meta.dirname, '../../resources/demo-snapshot.pickle');
const SNAPSHOTS = [
  realSnapshotPath('Constructor-Sun'),
  realSnapshotPath('a0kuma'),
  realSnapshotPath('LINYUNLinYun'),
  realSnapshotPath('volcengine'),
  DEMO,
];

const outDir = mkdtempSync(join(tmpdir(), 'allocscope-render-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

interface DecodedPng {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel. */
  pixels: Uint8Array;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A minimal PNG reader (8-bit RGBA or RGB, not interlaced: what resvg writes). */
function decodePng(bytes: Uint8Array): DecodedPng {
  expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Uint8Array[] = [];
  let sawEnd = false;
  while (offset < bytes.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      expect(offset).toBe(8); // IHDR comes first
      width = view.getUint32(offset + 8);
      height = view.getUint32(offset + 12);
      const bitDepth = data[8]!;
      const colorType = data[9]!;
      expect(bitDepth).toBe(8);
      expect([2, 6]).toContain(colorType);
      expect(data[12]).toBe(0); // not interlaced
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') sawEnd = true;
    offset += 12 + length;
  }
  expect(sawEnd).toBe(true);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  expect(raw.length).toBe(height * (stride + 1));
  const pixels = new Uint8Array(width * height * 4);
  let previous = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const current = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? current[i - channels]! : 0;
      const b = previous[i]!;
      const c = i >= channels ? previous[i - channels]! : 0;
      let predictor = 0;
      if (filter === 1) predictor = a;
      else if (filter === 2) predictor = b;
      else if (filter === 3) predictor = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else expect(filter).toBe(0);
      current[i] = (line[i]! + predictor) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      for (let k = 0; k < 4; k++)
        pixels[(y * width + x) * 4 + k] = k < channels ? current[x * channels + k]! : 255;
    }
    previous = current;
  }
  return { width, height, pixels };
}

/** Distinct colours, and the share of pixels that differ from the top-left (background) pixel. */
function pixelStats(image: DecodedPng): { colors: number; inkShare: number } {
  const colors = new Set<number>();
  const { pixels } = image;
  const background = new DataView(pixels.buffer).getUint32(0);
  const view = new DataView(pixels.buffer);
  let ink = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    const value = view.getUint32(i);
    colors.add(value);
    if (value !== background) ink++;
  }
  return { colors: colors.size, inkShare: ink / (pixels.length / 4) };
}

/** Well-formed XML, checked by CPython's expat; returns the root element's attributes. */
function parseSvg(path: string): Record<string, string> {
  const program = [
    'import sys, json, xml.dom.minidom',
    'root = xml.dom.minidom.parse(sys.argv[1]).documentElement',
    'attributes = {name: root.getAttribute(name) for name in root.attributes.keys()}',
    'attributes["__tag__"] = root.tagName',
    'print(json.dumps(attributes))',
  ].join('\n');
  const output = execFileSync('python3', ['-c', program, path], { encoding: 'utf8' });
  return JSON.parse(output) as Record<string, string>;
}

describe('allocscope render', () => {
  describe.each(SNAPSHOTS.map((path) => [basename(path), path]))('%s', (name, path) => {
    it.each(['timeline', 'segments'])(
      '--view %s writes a PNG of the requested size and a valid SVG',
      (view) => {
        const stem = join(outDir, `${name}-${view}`);
        const run = runCli([
          'render',
          path,
          '--view',
          view,
          '--png',
          `${stem}.png`,
          '--svg',
          `${stem}.svg`,
          '--width',
          '960',
          '--height',
          '540',
        ]);
        expect(run.stderr).toBe('');
        expect(run.status).toBe(0);
        expect(run.stdout).toContain(`${stem}.png (PNG 960x540)`);

        const image = decodePng(readFileSync(`${stem}.png`));
        expect([image.width, image.height]).toEqual([960, 540]);
        const stats = pixelStats(image);
        // Not blank: bars or bands, curves, text in several colours over a good part of the image.
        expect(stats.colors).toBeGreaterThan(20);
        expect(stats.inkShare).toBeGreaterThan(0.02);

        const svg = readFileSync(`${stem}.svg`, 'utf8');
        expect(svg.length).toBeLessThan(4_000_000);
        const root = parseSvg(`${stem}.svg`);
        expect(root).toMatchObject({
          __tag__: 'svg',
          xmlns: 'http://www.w3.org/2000/svg',
          width: '960',
          height: '540',
          viewBox: '0 0 960 540',
        });
        expect(svg).toContain(name.replace(/&/g, '&amp;'));
      },
    );
  });

  it('defaults to 1600x900, the OOM device, and scales the PNG with --scale', () => {
    const png = join(outDir, 'scaled.png');
    const run = runCli([
      'render',
      SNAPSHOTS[0]!,
      '--png',
      png,
      '--scale',
      '1.5',
      '--theme',
      'dark',
    ]);
    expect(run.status).toBe(0);
    // Device 1 of Constructor-Sun is the one with the OOM.
    expect(run.stdout).toMatch(/cuda:1 timeline/);
    const image = decodePng(readFileSync(png));
    expect([image.width, image.height]).toEqual([2400, 1350]);
    expect(pixelStats(image).colors).toBeGreaterThan(20);
  });

  it('--view segments shows the OOM moment by default, or the --moment given', () => {
    const path = SNAPSHOTS[0]!;
    const atOom = runCli(['render', path, '--view', 'segments', '--svg', join(outDir, 'oom.svg')]);
    expect(atOom.stdout).toMatch(/cuda:1 segments after event 421 /);
    const final = runCli([
      'render',
      path,
      '--view=segments',
      '--device=0',
      '--moment=final',
      '--svg',
      join(outDir, 'final.svg'),
    ]);
    expect(final.status).toBe(0);
    expect(readFileSync(join(outDir, 'final.svg'), 'utf8')).toContain('final state');
  });

  it('marks a --moment on the timeline', () => {
    const svgPath = join(outDir, 'moment.svg');
    const run = runCli(['render', SNAPSHOTS[1]!, '--svg', svgPath, '--moment', '10']);
    expect(run.status).toBe(0);
    expect(readFileSync(svgPath, 'utf8')).toContain('moment: after event 10');
  });

  it('exits 2 naming the file when it is not a snapshot or does not exist', () => {
    const notSnapshot = join(outDir, 'notes.pickle');
    writeFileSync(notSnapshot, 'just some text, not a pickle\n');
    const png = join(outDir, 'never.png');
    for (const [file, message] of [
      [notSnapshot, /notes\.pickle: /],
      [join(outDir, 'missing.pickle'), /missing\.pickle: no such file/],
    ] as const) {
      const run = runCli(['render', file, '--png', png]);
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(message);
    }
    expect(existsSync(png)).toBe(false);
  });

  it('exits 2 when the output cannot be written', () => {
    const run = runCli(['render', SNAPSHOTS[1]!, '--png', join(outDir, 'no/such/dir/out.png')]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/a0kuma.*cannot write .*out\.png/);
  });

  const file = SNAPSHOTS[1]!;
  it.each([
    [['render', file], /render needs --png/],
    [['render', file, '--png'], /--png needs a value/],
    [['render', file, '--png', 'x.png', '--view', 'pie'], /--view: /],
    [['render', file, '--png', 'x.png', '--width', 'wide'], /--width takes a whole number/],
    [['render', file, '--png', 'x.png', '--width', '10'], /--width: /],
    [['render', file, '--png', 'x.png', '--scale', '0'], /--scale: /],
    [['render', file, '--png', 'x.png', '--scale', 'big'], /--scale takes a number/],
    [['render', file, '--png', 'x.png', '--theme', 'blue'], /--theme: /],
    [['render', file, '--png', 'x.png', '--moment', 'soon'], /--moment takes an event index/],
    [['render', file, '--png', 'x.png', '--bytes'], /unknown option --bytes/],
    [['render', '--png', 'x.png'], /render needs a FILE/],
    // Sizes: at most 8192 pixels a side and 33,554,432 in all, refused before the file is read.
    [
      ['render', file, '--png', 'x.png', '--width', '16384', '--height', '16384'],
      /^allocscope: --width: render makes pictures of at most 8192 pixels a side\n/,
    ],
    [
      ['render', file, '--png', 'x.png', '--width', '8192', '--height', '8192'],
      /^allocscope: the picture would be 8192 x 8192 = 67,108,864 pixels \(--width x --height x --scale\); render makes at most 33,554,432 \(8192 x 4096\)\n/,
    ],
    [
      ['render', file, '--svg', 'x.svg', '--width', '4000', '--height', '3000', '--scale', '2'],
      /the picture would be 8000 x 6000 = 48,000,000 pixels/,
    ],
  ])('usage error %j exits 2', (args, message) => {
    const run = runCli(args);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
  });

  it('takes the largest pictures it makes: 8K UHD, 4K at --scale 2, 8192 x 4096', () => {
    for (const size of [
      ['--width', '7680', '--height', '4320'],
      ['--width', '3840', '--height', '2160', '--scale', '2'],
      ['--width', '8192', '--height', '4096'],
      ['--width', '200', '--height', '8192'],
    ])
      expect(() => parseCliOptions(['render', file, '--png', 'x.png', ...size])).not.toThrow();
    expect(() =>
      parseCliOptions(['render', file, '--png', 'x.png', '--width', '8192', '--height', '4097']),
    ).toThrow(/33,562,624 pixels/);
  });

  it.each([
    [['--device', '7'], /a0kuma.*device 7 is not in .* \(devices: 0\)/],
    [['--moment', '100000'], /a0kuma.*--moment 100000 is past the end of cuda:0's trace/],
    [['--moment', 'oom'], /a0kuma.*cuda:0 has no OOM event/],
  ])('bad value for this file %j exits 2 naming the file', (args, message) => {
    const run = runCli(['render', file, '--png', join(outDir, 'bad.png'), ...args]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(existsSync(join(outDir, 'bad.png'))).toBe(false);
  });
});
