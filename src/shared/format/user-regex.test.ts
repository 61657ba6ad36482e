import { describe, expect, it } from 'vitest';
import { compileUserRegex, MAX_MATCHED_CHARS, type UserRegex } from './user-regex';

function compiled(pattern: string, ignoreCase = false): UserRegex {
  const result = compileUserRegex(pattern, { ignoreCase });
  if (!result.ok) throw new Error(result.message);
  return result.regex;
}

function refusal(pattern: string): string {
  const result = compileUserRegex(pattern);
  return result.ok ? 'compiled' : result.message;
}

describe('compileUserRegex', () => {
  it('matches as a search does: anywhere in the text, case ignored when asked', () => {
    expect(compiled('model\\.py:\\d+ forward$').test('/src/model.py:62 forward')).toBe(true);
    expect(compiled('model\\.py:\\d+ forward$').test('/src/model.py:62 forwards')).toBe(false);
    expect(compiled('accumulategrad').test('torch::autograd::AccumulateGrad')).toBe(false);
    expect(compiled('accumulategrad', true).test('torch::autograd::AccumulateGrad')).toBe(true);
    expect(compiled('^train').test('x/train.py')).toBe(false);
  });

  // On JavaScript's RegExp each of these backtracks for seconds to hours on such a frame.
  it.each([
    ['(a+)+$', `${'a'.repeat(40)}!`],
    ['(x+x+)+y', 'x'.repeat(41)],
    ['(.*a){20}', `${'a'.repeat(19)}${'b'.repeat(30)}`],
    ['(a|aa)*c', 'a'.repeat(5000)],
  ])('matches %s in linear time', (pattern, text) => {
    const regex = compiled(pattern);
    const started = performance.now();
    for (let i = 0; i < 10; i++) expect(regex.test(text)).toBe(false);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('matches only the first MAX_MATCHED_CHARS characters of a huge text, quickly', () => {
    const huge = `${'a'.repeat(10_000_000)}needle`;
    const started = performance.now();
    expect(compiled('needle').test(huge)).toBe(false);
    expect(compiled('(a|b)*a(a|b){500}c').test(huge)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
    expect(compiled('needle').test(`${'a'.repeat(MAX_MATCHED_CHARS - 6)}needle`)).toBe(true);
  });

  it('names what RE2 cannot run in linear time', () => {
    const unsupported = "which allocscope's linear-time regular expressions do not support";
    expect(refusal('(?=a)')).toBe(`the expression uses a lookahead (?=…), ${unsupported}`);
    expect(refusal('a(?!b)')).toBe(
      `the expression uses a negative lookahead (?!…), ${unsupported}`,
    );
    expect(refusal('(?<=a)b')).toBe(`the expression uses a lookbehind (?<=…), ${unsupported}`);
    expect(refusal('(?<!a)b')).toMatch(/^the expression uses a negative lookbehind \(\?<!…\)/);
    expect(refusal('(a)\\1')).toBe(`the expression uses a backreference \\1, ${unsupported}`);
    expect(refusal('(?<x>a)\\k<x>')).toMatch(/uses a named backreference \\k<…>/);
    expect(refusal('(?P<x>a)(?P=x)')).toMatch(/uses a named backreference \(\?P=…\)/);
    expect(refusal('(?>a+)b')).toMatch(/uses an atomic group/);
    expect(refusal('a++')).toMatch(/uses a possessive quantifier \+\+/);
  });

  it('says what is wrong with an expression that is not one', () => {
    expect(refusal('model(')).toBe('not a regular expression: missing closing ) `model(`');
    // The search box ignores case: the message quotes the user's text all the same.
    expect(compileUserRegex('model(', { ignoreCase: true })).toEqual({
      ok: false,
      message: 'not a regular expression: missing closing ) `model(`',
    });
    expect(refusal('[')).toBe('not a regular expression: missing closing ] `[`');
    expect(refusal('a{2000}')).toBe(
      'not a regular expression: invalid repeat count `{2000}` (RE2 repeats at most 1000 times)',
    );
    expect(refusal('\\u0041')).toMatch(/invalid escape sequence `\\u` \(write a character/);
    expect(refusal('(?:(?:.{0,999}a){0,999})c')).toBe(
      'not a regular expression: expression too large',
    );
    expect(refusal('a'.repeat(1001))).toMatch(/1001 characters long; at most 1000/);
    expect(refusal('(?P<name>a)\\x{263A}[[:alpha:]]\\pL')).toBe('compiled');
  });
});
