// "Colour by: stack | allocation" in the timeline's toolbar, remembered across sessions: by stack
// one call site keeps one colour; by allocation every allocation gets its own (as MemoryViz
// draws them). The SVG/PNG export reads the same remembered choice (rememberedColorBy).

import { useCallback, useId, useState, type JSX } from 'react';
import { COLOR_BY_VALUES, type ColorBy } from '@shared/chart/band-colors';

const STORAGE_KEY = 'allocscope.timeline.colorBy';

/** The colouring last chosen; by stack when none was, or storage cannot be read. */
export function rememberedColorBy(): ColorBy {
  try {
    const value = globalThis.localStorage?.getItem(STORAGE_KEY);
    return COLOR_BY_VALUES.find((option) => option === value) ?? 'stack';
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

const OPTIONS: Record<ColorBy, { label: string; title: string }> = {
  stack: { label: 'stack', title: 'One colour per call stack: what one line of code holds' },
  allocation: {
    label: 'allocation',
    title: 'Each allocation its own colour (as PyTorch’s MemoryViz draws them)',
  },
};

export function ColorByToggle(props: {
  colorBy: ColorBy;
  onChange: (colorBy: ColorBy) => void;
}): JSX.Element {
  const { colorBy, onChange } = props;
  const labelId = useId();
  return (
    <span className="tl-color-by">
      <span className="tl-visually-hidden" id={labelId}>
        colour by
      </span>
      <span
        className="segmented"
        role="radiogroup"
        aria-labelledby={labelId}
        data-testid="color-by"
        data-value={colorBy}
      >
        {COLOR_BY_VALUES.map((value) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={colorBy === value}
            data-value={value}
            title={OPTIONS[value].title}
            onClick={() => onChange(value)}
          >
            {OPTIONS[value].label}
          </button>
        ))}
      </span>
    </span>
  );
}
