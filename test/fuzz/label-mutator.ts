// Frame names shaped to hurt the label functions (analysis/user-frame.ts, format/words.ts): C++
// templates `a<b<c<…>>>` thousands deep or never closed, `…Backward…Backward…` chains that almost
// match the autograd rule, parameter lists, operators, linker suffixes and anonymous namespaces
// repeated, paths of thousands of parts, names of 64 KiB to profile.maxStringBytes, terminal
// control characters. Put in frames that live allocations share (so top, holders and labels meet
// them), or as a whole C++-only stack (so the C++ and autograd rules, not the user-frame rule,
// decide the label); also in forward_frames, annotation names and categories. Written as a pickle,
// or as the JSON form.

import { jsonTextOf } from './json-text';
import { ascii, shown, type Mutator, type MutatorContext } from './mutator-kit';
import type { Prng } from './prng';
import type { Obj } from './snapshot-generator';
import { dumpValue, isPlainObject, snapshotValue, traceListsOf } from './snapshot-value';

/** A label-shaped name of about `bytes` characters (at least a few hundred). */
export function hostileName(rng: Prng, bytes: number): [string, string] {
  const times = (unit: string): number => Math.max(1, Math.floor(bytes / unit.length));
  switch (rng.below(12)) {
    case 0: {
      const depth = times('std::vector<>');
      return [
        `at::native::(anonymous namespace)::kernel<${'std::vector<'.repeat(depth)}float${'>'.repeat(depth)}>(c10::ArrayRef<long>)`,
        `a template ${depth} deep`,
      ];
    }
    case 1: {
      const depth = times('a<');
      return [`f${'a<'.repeat(depth)}(int)`, `${depth} template brackets never closed`];
    }
    case 2: {
      const depth = times('>');
      return [`g${'>'.repeat(depth)}${rng.chance(0.5) ? '(' : '<'}`, `${depth} closing brackets`];
    }
    case 3: {
      const count = times('MulBackward0');
      return [
        `torch::autograd::generated::${'MulBackward0'.repeat(count)}::apply`,
        `a Backward chain of ${count}`,
      ];
    }
    case 4: {
      // Almost the autograd rule: fails at the very end, after the regex tried every split.
      const count = times('Backward');
      return [
        `torch::autograd::${'Backward'.repeat(count)}${rng.pick(['::', '::apply(', '!', ' ', '::a::b'])}`,
        `${count} x Backward, then a near miss`,
      ];
    }
    case 5: {
      const depth = times('(');
      return [
        `h${'('.repeat(depth)}${rng.chance(0.5) ? ')'.repeat(depth) : ''}`,
        `${depth} parentheses`,
      ];
    }
    case 6: {
      const count = times('operator<<');
      return [`ns::${'operator<<'.repeat(count)}()`, `operator<< x ${count}`];
    }
    case 7: {
      const unit = rng.pick([
        ' [clone .isra.0]',
        '.constprop.0',
        '(anonymous namespace)::',
        '::',
        '{lambda()#1}::',
      ]);
      const count = times(unit);
      return [`at::${unit.repeat(count)}fn(int)`, `${shown(unit)} x ${count}`];
    }
    case 8: {
      const unit = rng.pick(['<', '<(', '(<', '<[', ' <', '< ']);
      const count = times(unit);
      return [`t${unit.repeat(count)}`, `${shown(unit)} x ${count}`];
    }
    case 9:
      return ['x'.repeat(bytes), `a name of ${bytes} characters`];
    case 10: {
      const unit = rng.pick([
        '\u001b[31m',
        '\r',
        '\u0000',
        '\u009b2J',
        '\n',
        '\u007f',
        '\t',
        '\u202e',
      ]);
      return [
        `evil${unit.repeat(rng.chance(0.5) ? 1 : times(unit))}name`,
        `control characters ${shown(unit)}`,
      ];
    }
    default: {
      const unit = rng.pick(['a/', '/torch/', 'lib/python3', '\\', '<frozen ', 'site-packages/']);
      return [`${unit.repeat(times(unit))}x.py`, `a path of ${shown(unit)} x ${times(unit)}`];
    }
  }
}

interface Found {
  frames: Obj[];
  stacks: unknown[][];
  entries: Obj[];
}

/** Frames (dicts with a filename or a name), stacks (lists of frames) and trace entries. */
function framesOf(root: unknown): Found {
  const found: Found = {
    frames: [],
    stacks: [],
    entries: traceListsOf(root).flat().filter(isPlainObject),
  };
  const seen = new Set<object>();
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      if (value.length > 0 && value.every((item) => isPlainObject(item) && 'filename' in item)) {
        found.stacks.push(value);
      }
      pending.push(...value);
    } else if (isPlainObject(value)) {
      if ('filename' in value && 'name' in value) found.frames.push(value);
      pending.push(...Object.values(value));
    }
  }
  return found;
}

function cppStack(rng: Prng, name: string): Obj[] {
  const frame = (filename: string, frameName: string): Obj => ({
    filename,
    line: 0,
    name: frameName,
  });
  const stack = [
    frame('??', 'torch::unwind::unwind()'),
    frame('??', 'c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(int)'),
    frame(rng.pick(['??', 'libtorch_cuda.so', 'thread48.o']), name),
    frame('??', 'start_thread'),
  ];
  if (rng.chance(0.3))
    stack.splice(
      2,
      0,
      frame(
        '??',
        'torch::autograd::Engine::thread_main(std::shared_ptr<torch::autograd::GraphTask> const&)',
      ),
    );
  return stack;
}

export const frameLabels: Mutator = (ctx: MutatorContext) => {
  const { rng, profile } = ctx;
  const value = snapshotValue(ctx);
  const found = framesOf(value.root);
  const notes: string[] = [];
  const count = rng.logInt(3);
  for (let i = 0; i < count; i++) {
    const bytes = rng.chance(0.7) ? rng.int(256, 4096) : rng.int(64 << 10, profile.maxStringBytes);
    const [name, label] = hostileName(rng, bytes);
    const where = rng.below(10);
    if (where < 4 && found.frames.length > 0) {
      const frame = rng.pick(found.frames);
      const field = rng.chance(0.75) ? 'name' : 'filename';
      frame[field] = name;
      if (field === 'name' && rng.chance(0.5))
        frame.filename = rng.pick(['??', 'model.py', '/usr/lib/libtorch.so']);
      notes.push(`a frame's ${field}: ${label}`);
    } else if (where < 7 && found.stacks.length > 0) {
      const stack = rng.pick(found.stacks);
      stack.splice(0, stack.length, ...cppStack(rng, name));
      notes.push(`a C++ stack: ${label}`);
    } else if (where < 9 && found.entries.length > 0) {
      // Stacks of their own on allocations, or forward_frames.
      const entries = found.entries.filter((entry) => entry.action === 'alloc');
      const entry = entries.length > 0 ? rng.pick(entries) : rng.pick(found.entries);
      if (rng.chance(0.5)) {
        entry.frames = cppStack(rng, name);
        notes.push(`an ${String(entry.action)} entry's stack: ${label}`);
      } else {
        entry.forward_frames = [name, `File "model.py", line 3, in ${name}`];
        notes.push(`forward_frames: ${label}`);
      }
    } else if (isPlainObject(value.root)) {
      // Annotation names (the timeline's spans) and categories.
      const annotations = Array.isArray(value.root.external_annotations)
        ? (value.root.external_annotations as unknown[])
        : [];
      value.root.external_annotations = annotations;
      annotations.push(
        { stage: 'START', name, device: 0, time_us: 1 },
        { stage: 'END', name, device: 0, time_us: 2 },
      );
      for (const entry of found.entries) if (rng.chance(0.5)) entry.category = name;
      notes.push(`annotation names and categories: ${label}`);
    }
  }
  if (rng.chance(0.2)) {
    const text = jsonTextOf(value.root, { nonFinite: 'null', maxChars: 4 * profile.maxGrowBytes });
    if (text !== null)
      return { bytes: ascii(text), seed: `${value.seed} as JSON`, note: notes.join('; ') };
  }
  return { bytes: dumpValue(value), seed: value.seed, note: notes.join('; ') };
};
