// Every regular expression a person or a file gives allocscope (the search box, `top --grep`, the
// `match` patterns of a categories rules file) runs on RE2's engine (re2js: the same pure
// JavaScript in Node and the page), never on JavaScript's RegExp. RegExp backtracks: `(a+)+$`
// against a 41-character frame runs for minutes, on the page's main thread for the search box.
// RE2 matches in time linear in the text, and refuses what cannot be matched that way
// (backreferences, lookaround); those refusals are worded here, once, for every caller.

import { RE2JS, RE2JSSyntaxException } from 're2js';

/** RE2's syntax, which the docs and the search box point to. */
export const REGEX_SYNTAX_URL = 'https://github.com/google/re2/wiki/Syntax';

/** Longest expression taken (RE2's compiled program grows with it; nobody types more). */
export const MAX_PATTERN_CHARS = 1000;

/**
 * How much of a text is matched: its first 8,192 characters. Frames ("filename:line name") are a
 * few hundred characters; RE2's time is linear in the text but also grows with the expression, so
 * a 60 MB frame name in a hostile file must not cost seconds per keystroke.
 */
export const MAX_MATCHED_CHARS = 8192;

export interface UserRegex {
  /** Whether the expression matches somewhere in the text (its first MAX_MATCHED_CHARS). */
  test(text: string): boolean;
}

/** The expression compiled, or one clause saying why it cannot be used ("the expression uses…"). */
export type CompiledUserRegex = { ok: true; regex: UserRegex } | { ok: false; message: string };

const UNSUPPORTED = "which allocscope's linear-time regular expressions do not support";

/**
 * Syntax that JavaScript (or Perl, Python) has and RE2 does not, by the fragment RE2's parser
 * stops at: what it is, in words.
 */
const UNSUPPORTED_FRAGMENTS: readonly [prefix: string, what: string][] = [
  ['(?<=', 'a lookbehind (?<=…)'],
  ['(?<!', 'a negative lookbehind (?<!…)'],
  ['(?=', 'a lookahead (?=…)'],
  ['(?!', 'a negative lookahead (?!…)'],
  ['(?>', 'an atomic group (?>…)'],
  // (?P<name>…) is RE2 syntax; (?P=name) and (?P>name) are not.
  ['(?P', 'a named backreference (?P=…)'],
  ['\\k', 'a named backreference \\k<…>'],
  ['\\g', 'a backreference \\g…'],
];

/** Compiles an expression for `test`, or says why it cannot be used. */
export function compileUserRegex(
  pattern: string,
  options: { ignoreCase?: boolean } = {},
): CompiledUserRegex {
  if (pattern.length > MAX_PATTERN_CHARS)
    return {
      ok: false,
      message: `the expression is ${pattern.length} characters long; at most ${MAX_PATTERN_CHARS} are taken`,
    };
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern, options.ignoreCase === true ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    return { ok: false, message: describeRefusal(error, pattern) };
  }
  return {
    ok: true,
    regex: {
      test: (text) =>
        compiled.test(text.length > MAX_MATCHED_CHARS ? text.slice(0, MAX_MATCHED_CHARS) : text),
    },
  };
}

function describeRefusal(error: unknown, pattern: string): string {
  if (!(error instanceof RE2JSSyntaxException)) {
    // RE2's other refusals ("expression too large") carry their own words.
    const message = error instanceof Error ? error.message : String(error);
    return `not a regular expression: ${message.replace(/^error parsing regexp: /, '')}`;
  }
  const description = error.getDescription();
  let fragment = error.getPattern() ?? '';
  // RE2JS writes the case-insensitive flag into the expression it parses: not the user's text.
  if (fragment.startsWith('(?i)') && !pattern.startsWith('(?i)')) fragment = fragment.slice(4);
  const unsupported = UNSUPPORTED_FRAGMENTS.find(([prefix]) => fragment.startsWith(prefix));
  if (unsupported !== undefined) return `the expression uses ${unsupported[1]}, ${UNSUPPORTED}`;
  if (/^\\[1-9]/.test(fragment))
    return `the expression uses a backreference ${fragment}, ${UNSUPPORTED}`;
  if (description === 'invalid nested repetition operator' && fragment.endsWith('+'))
    return `the expression uses a possessive quantifier ${fragment}, ${UNSUPPORTED}`;
  const hint =
    fragment === '\\u'
      ? ' (write a character by its code as \\x{263A})'
      : description === 'invalid repeat count'
        ? ' (RE2 repeats at most 1000 times)'
        : '';
  return `not a regular expression: ${description}${fragment === '' ? '' : ` \`${fragment}\``}${hint}`;
}
