// "Colour allocations by" in the timeline's toolbar: by stack one call site keeps one colour; by
// allocation every allocation gets its own (as MemoryViz draws them); by a grouping of the holders
// (category, top user frame, file, annotation span, ...) each named group its own colour, with a
// legend (holders/band-coloring.ts). The choice lives in the tab's store (remembered across
// sessions from there), which the SVG/PNG export reads too.

import type { JSX } from 'react';
import { COLOR_BY_NAMES, type ColorBy } from '@shared/holders/band-coloring';

const TITLES: Partial<Record<ColorBy, string>> = {
  stack: 'One colour per call stack: what one line of code holds',
  allocation: 'Each allocation its own colour (as PyTorch’s MemoryViz draws them)',
  category: 'Parameters, gradients, optimizer state, activations, … (docs/categories.md)',
};

export function ColorBySelect(props: {
  colorBy: ColorBy;
  /** The colourings that apply to the device shown (by op: profiler traces only). */
  options: readonly ColorBy[];
  onChange: (colorBy: ColorBy) => void;
}): JSX.Element {
  const { colorBy, options, onChange } = props;
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
        const next = options.find((option) => option === event.target.value);
        if (next !== undefined) onChange(next);
      }}
    >
      {options.map((value) => (
        <option key={value} value={value}>
          {COLOR_BY_NAMES[value]}
        </option>
      ))}
    </select>
  );
}
