import { describe, expect, it } from 'vitest';
import {
  defaultPngScale,
  MAX_CANVAS_PIXELS,
  MAX_CANVAS_SIDE,
  pngPixelSize,
  svgSize,
  withSvgNamespace,
} from './svg-to-png';

describe('PNG size', () => {
  it('defaults to at least 2×, or the screen’s ratio up to 3×', () => {
    expect(defaultPngScale(1)).toBe(2);
    expect(defaultPngScale(1.25)).toBe(2);
    expect(defaultPngScale(2)).toBe(2);
    expect(defaultPngScale(2.5)).toBe(3);
    expect(defaultPngScale(3)).toBe(3);
    expect(defaultPngScale(4)).toBe(3);
    expect(defaultPngScale(NaN)).toBe(2);
  });

  it('is the css size times the scale', () => {
    expect(pngPixelSize(1600, 900, 2)).toEqual({ width: 3200, height: 1800, scale: 2 });
    expect(pngPixelSize(801.4, 300.6, 3)).toEqual({ width: 2403, height: 903, scale: 3 });
    expect(pngPixelSize(0, 0, 2)).toEqual({ width: 2, height: 2, scale: 2 });
  });

  it('scales down only as far as a canvas needs', () => {
    const tall = pngPixelSize(1000, 20_000, 2);
    expect(tall.height).toBeLessThanOrEqual(MAX_CANVAS_SIDE);
    expect(tall.scale).toBeLessThan(1);
    const big = pngPixelSize(12_000, 12_000, 3);
    expect(big.width * big.height).toBeLessThanOrEqual(MAX_CANVAS_PIXELS);
    expect(big.width).toBeLessThanOrEqual(MAX_CANVAS_SIDE);
  });
});

describe('svgSize', () => {
  it('reads width and height from the root element', () => {
    expect(svgSize('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450">')).toEqual({
      width: 800,
      height: 450,
    });
    expect(svgSize("<?xml version='1.0'?><svg height='20px' width='30.5px'></svg>")).toEqual({
      width: 30.5,
      height: 20,
    });
    expect(svgSize('<svg viewBox="0 0 640 480"><rect width="5" height="5"/></svg>')).toEqual({
      width: 640,
      height: 480,
    });
    expect(svgSize('<svg width="100%" height="100%"></svg>')).toBeNull();
    expect(svgSize('<div/>')).toBeNull();
  });

  it('does not take a child element’s size for the root’s', () => {
    expect(svgSize('<svg viewBox="0 0 10 20"><rect width="5" height="5"/></svg>')).toEqual({
      width: 10,
      height: 20,
    });
  });

  it('adds the SVG namespace where missing', () => {
    expect(withSvgNamespace('<svg width="1"></svg>')).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="1"></svg>',
    );
    const namespaced = '<svg xmlns="http://www.w3.org/2000/svg"></svg>';
    expect(withSvgNamespace(namespaced)).toBe(namespaced);
  });
});
