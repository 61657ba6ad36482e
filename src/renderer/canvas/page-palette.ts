// Writes the palette's CSS custom properties (src/shared/render/palette-css.ts) onto the page's
// root element, and again when the system switches between light and dark, so the stylesheets
// read the same colours as the canvas charts and the exports. Set through the CSSOM
// (style.setProperty), which the page's CSP (style-src 'self', no inline styles) allows.

import { paletteCssVariables } from '@shared/render/palette-css';
import type { ThemeName } from '@shared/render/palette';
import { currentThemeName, onThemeNameChange } from './color-scheme';

export function applyPagePalette(root: HTMLElement): () => void {
  const write = (name: ThemeName): void => {
    for (const [property, value] of Object.entries(paletteCssVariables(name))) {
      root.style.setProperty(property, value);
    }
  };
  write(currentThemeName());
  return onThemeNameChange(write);
}
