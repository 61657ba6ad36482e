// The live memory by category over the whole trace, with the selected moment marked: the same
// picture `allocscope render --view categories` draws (shared SVG renderer), scaled to the pane.
// The series is one pass over the allocations (holders/category-series.ts), so it is built here.

import { useMemo, useState, useEffect, type JSX } from 'react';
import type { AnalyzedSnapshot } from '@shared/analyzed/analyzed-snapshot';
import type { CategoryRules } from '@shared/holders/category-rules';
import { renderCategoriesSvg } from '@shared/render/categories-svg';
import { currentThemeName, onThemeNameChange } from '../canvas/color-scheme';

export interface CategoriesOverTimeProps {
  snapshot: AnalyzedSnapshot;
  deviceIndex: number;
  moment: number;
  rules: CategoryRules;
}

export function CategoriesOverTime(props: CategoriesOverTimeProps): JSX.Element {
  const { snapshot, deviceIndex, moment, rules } = props;
  const [theme, setTheme] = useState(currentThemeName);
  useEffect(() => onThemeNameChange(setTheme), []);
  // Markup of our own renderer from the file's data: every text in it is escaped (svg-markup.ts).
  const svg = useMemo(
    () =>
      renderCategoriesSvg(snapshot, deviceIndex, {
        width: 1000,
        height: 320,
        moment,
        theme,
        rules,
      }),
    [snapshot, deviceIndex, moment, theme, rules],
  );
  return (
    <div
      className="holders-categories"
      data-testid="holders-categories"
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}
