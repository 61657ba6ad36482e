// The HTML page of `python -m torch.cuda._memory_viz trace_plot`, with the pickle (a seed, or
// another mutator's case) in its place and the page made hostile: the payload moved (after a huge
// page, near the 64 KiB sniffing window and the 1 MiB key search, or past it), `base64` words
// before it (a data: URI, a key without its colon, an empty payload, a decoy), broken base64 (a
// bad character, `=` inside, the URL-safe alphabet, cut mid-quantum, no closing quote), a payload
// that is not a pickle, a huge page after the payload, other encodings, two payloads.

import { gzipSync } from 'node:zlib';
import {
  ascii,
  concat,
  pickSeed,
  shown,
  type Mutation,
  type Mutator,
  type MutatorContext,
} from './mutator-kit';

/** _memory_viz.py's template ($SNAPSHOT is `json.dumps([{"name": ..., "base64": ...}])`). */
function page(localFiles: string, vizKind: string, before = '', after = ''): string {
  return `
<!DOCTYPE html>
<html>
<head>
</head>
<body>${before}
<script type="module">
import {add_local_files} from "https://cdn.jsdelivr.net/gh/pytorch/pytorch@main/torch/utils/viz/MemoryViz.js"
const local_files = ${localFiles}
add_local_files(local_files, ${vizKind})
</script>
</body>${after}
`;
}

/** What _format_viz does to the pickle: NUL padding to a multiple of 3 (3 when it already is). */
function base64Of(pickle: Uint8Array): string {
  return Buffer.from(concat(pickle, new Uint8Array(3 - (pickle.length % 3)))).toString('base64');
}

const INNER = ['byte-flip', 'truncate', 'wrong-type', 'frame-labels', 'user-metadata', 'devices'];

function payloadOf(ctx: MutatorContext): Mutation {
  const { rng } = ctx;
  const roll = rng.next();
  if (roll < 0.55) {
    const pickles = ctx.seeds.filter((seed) => seed.bytes[0] === 0x80);
    const seed = pickles.length > 0 ? rng.pick(pickles) : pickSeed(ctx);
    return { bytes: seed.bytes, seed: seed.name, note: 'valid' };
  }
  if (roll < 0.9) return ctx.inner(INNER);
  // Not a pickle: gzip of one, or the JSON form.
  const seed = pickSeed(ctx);
  return rng.chance(0.5)
    ? { bytes: gzipSync(seed.bytes), seed: seed.name, note: 'gzip inside' }
    : { bytes: ascii('{"segments": [], "device_traces": []}'), seed: 'JSON', note: 'JSON inside' };
}

/** Filler HTML of about `bytes` bytes. */
function filler(ctx: MutatorContext, bytes: number): string {
  const unit = ctx.rng.pick([
    '<div class="x">memory</div>\n',
    '<!-- comment -->',
    ' ',
    '<p>base64 is how the snapshot is embedded</p>\n',
    '<img src="data:image/png;base64,iVBORw0KGgo=">\n',
  ]);
  return unit.repeat(Math.max(1, Math.ceil(bytes / unit.length)));
}

export const htmlWrapper: Mutator = (ctx) => {
  const { rng, profile } = ctx;
  const inner = payloadOf(ctx);
  let base64 = base64Of(inner.bytes);
  const vizKind = rng.pick(["'Active Memory Timeline'", "'Active Cached Segment Timeline'"]);
  const name = '"snapshot.pickle"';
  let before = '';
  let after = '';
  let decoy = '';
  let closing = '"';
  const notes: string[] = [];
  switch (rng.below(6)) {
    case 0: {
      // The payload moved: near the sniffing window, the key search's MiB, or past it.
      const target = rng.pick([
        60 << 10,
        (64 << 10) - rng.below(64),
        (1 << 20) - rng.int(0, 256),
        (1 << 20) + rng.int(0, 256),
        rng.logInt(profile.maxGrowBytes),
      ]);
      before = filler(ctx, target);
      notes.push(`${before.length} bytes of page before the payload`);
      break;
    }
    case 1: {
      // `base64` words before the payload.
      const [text, label] = rng.pick<[string, string]>([
        ['"base64"', 'the key without a colon'],
        ['"base64": 5,', 'the key with a number'],
        ['"base64": "",', 'an empty payload'],
        ['"base64" : "AAAA",', 'a decoy payload'],
        ['<img src="data:image/png;base64,iVBORw0KGgo=">', 'a data: URI'],
        ['"base64":', 'the key at the end of a line'],
      ]);
      decoy = text;
      notes.push(label);
      break;
    }
    case 2: {
      // Broken base64.
      const at = rng.below(base64.length + 1);
      const how = rng.below(6);
      if (how === 0) {
        const bad = rng.pick(['!', '-', '_', '%', 'é', '\u0000', '.', '\\u002b']);
        base64 = base64.slice(0, at) + bad + base64.slice(at);
        notes.push(`${shown(bad)} @${at} of the payload`);
      } else if (how === 1) {
        base64 = `${base64.slice(0, at)}=${base64.slice(at)}`;
        notes.push(`'=' @${at} of the payload`);
      } else if (how === 2) {
        base64 = base64.replace(/\+/g, '-').replace(/\//g, '_');
        notes.push('URL-safe alphabet');
      } else if (how === 3) {
        base64 = base64.slice(0, at);
        notes.push(`payload cut at ${at}`);
      } else if (how === 4) {
        closing = '';
        notes.push('no closing quote');
      } else {
        // Valid variants: line breaks every 76 characters, JSON's escaped slash.
        base64 = rng.chance(0.5)
          ? (base64.match(/.{1,76}/g) ?? []).join('\\n')
          : base64.replace(/\//g, '\\/');
        notes.push('payload with escapes');
      }
      break;
    }
    case 3: {
      // A huge page after the payload: nothing past STOP needs reading.
      after = filler(ctx, rng.logInt(profile.maxGrowBytes));
      notes.push(`${after.length} bytes of page after the payload`);
      break;
    }
    case 4: {
      // Two payloads: the first is the snapshot.
      decoy = `{"name": "other.pickle", "base64": "${base64Of(pickSeed(ctx).bytes)}"}, `;
      notes.push('two payloads');
      break;
    }
    default:
      notes.push('as _memory_viz writes it');
  }
  const localFiles = `[${decoy}{"name": ${name}, "base64": "${base64}${closing}}]`;
  let bytes = ascii(page(localFiles, vizKind, before, after));
  switch (rng.below(8)) {
    case 0:
      bytes = concat(Uint8Array.of(0xef, 0xbb, 0xbf), bytes);
      notes.push('UTF-8 BOM');
      break;
    case 1:
      bytes = concat(
        Uint8Array.of(0xff, 0xfe),
        new Uint8Array(Buffer.from(Buffer.from(bytes).toString('latin1'), 'utf16le')),
      );
      notes.push('UTF-16LE');
      break;
    case 2:
      bytes = gzipSync(bytes);
      notes.push('gzipped');
      break;
    case 3: {
      const cut = rng.below(bytes.length);
      bytes = bytes.subarray(0, cut);
      notes.push(`page cut at ${cut}`);
      break;
    }
    default:
      break;
  }
  return { ...inner, bytes, note: `${notes.join(', ')} (${inner.note})` };
};
