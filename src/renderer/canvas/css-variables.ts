// Chart colours live in CSS custom properties (light and dark themes, later restyling); canvas
// code reads them through these, with a fallback where the stylesheet sets none.

export function cssVariable(style: CSSStyleDeclaration, name: string, fallback: string): string {
  const value = style.getPropertyValue(name).trim();
  return value === '' ? fallback : value;
}

export function cssNumberVariable(
  style: CSSStyleDeclaration,
  name: string,
  fallback: number,
): number {
  const value = Number.parseFloat(style.getPropertyValue(name));
  return Number.isFinite(value) ? value : fallback;
}
