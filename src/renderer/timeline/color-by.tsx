// "Colour allocations by" in the timeline's toolbar, remembered across sessions: by stack one call
// site keeps one colour; by allocation every allocation gets its own (as MemoryViz draws them); by
// a grouping of the holders (category, top user frame, file, annotation span, ...) each named group
// its own colour, with a legend (holders/band-coloring.ts). The SVG/PNG export reads the same
// remembered choice (rememberedColorBy).

import { useCallback, useState, type JSX } from 'react';
import { COLOR_BY_NAMES, COLOR_BYS, type ColorBy } from '@shared/holders/band-coloring';

const STORAGE_KEY = 'allocscope.timeline.colorBy';

/** The colouring last chosen; by stack when none was, or storage cannot be read. */
export function rememberedColorBy(): ColorBy {
  try {
    const value = globalThis.localStorage?.getItem(STORAGE_KEY);
    return COLOR_BYS.find((option) => option === value) ?? 'stack';
  } catch {
    return 'stack';
  }
}

function rememberColorBy(colorBy: ColorBy): void {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, colorBy);
  } catch {
    // Storage refused (private mode, quota): the choice holds for this page only.
  }
}

/** The remembered colouring and a setter that remembers it. */
export function useColorBy(): [ColorBy, (colorBy: ColorBy) => void] {
  const [colorBy, setColorBy] = useState<ColorBy>(rememberedColorBy);
  const choose = useCallback((next: ColorBy) => {
    rememberColorBy(next);
    setColorBy(next);
  }, []);
  return [colorBy, choose];
}

const TITLES: Partial<Record<ColorBy, string>> = {
  stack: 'One colour per call stack: what one line of code holds',
  allocation: 'Each allocation its own colour (as PyTorch’s MemoryViz draws them)',
  category: 'Parameters, gradients, optimizer state, activations, … (docs/categories.md)',
};

export function ColorBySelect(props: {
  colorBy: ColorBy;
  onChange: (colorBy: ColorBy) => void;
}): JSX.Element {
  const { colorBy, onChange } = props;
  return (
    <select
      className="tl-color-by"
      data-testid="color-by"
      data-value={colorBy}
      aria-label="Colour allocations by"
      title={
        TITLES[colorBy] ?? `One colour per ${COLOR_BY_NAMES[colorBy]}, named below the toolbar`
      }
      value={colorBy}
      onChange={(event) => {
        const next = COLOR_BYS.find((option) => option === event.target.value);
        if (next !== undefined) onChange(next);
      }}
    >
      {COLOR_BYS.map((value) => (
        <option key={value} value={value}>
          {COLOR_BY_NAMES[value]}
        </option>
      ))}
    </select>
  );
}
