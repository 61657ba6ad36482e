// The label code as it was before issue 20 (regular expressions that backtracked, template
// arguments removed one level per pass): the reference the linear code must agree with on the
// names real snapshots hold. Quadratic on long names: never call it on those.

export function oldShortNativeName(symbol: string): string {
  const qualified = oldQualifiedNativeName(symbol);
  const parts = qualified.split('::').filter((part) => part !== '' && !isAnonymousPart(part));
  const last = parts.at(-1) ?? qualified;
  const owner = parts.at(-2);
  if (owner === undefined || NAMESPACE_PARTS.has(owner)) return last;
  // A constructor or destructor says its class once: "StorageImpl", "~StorageImpl".
  if (last === owner || last === `~${owner}`) return last;
  return `${owner}::${last}`;
}

/**
 * `ns::Class::method` of a C++ symbol: without template arguments, the parameter list, the
 * return type and linker suffixes. Exported for rules that match on namespaces
 * (analysis/user-frame.ts).
 */
export function oldQualifiedNativeName(symbol: string): string {
  // Python's own names (`<module>`, `<listcomp>`) hold brackets too, but no scope or parameters.
  if (!symbol.includes('::') && !symbol.includes('(')) return symbol.replace(LINKER_SUFFIX, '');
  let text = symbol
    .replace(/ \[clone [^\]]*\]/g, '')
    .replace(LINKER_SUFFIX, '')
    .replace(/\(anonymous namespace\)/g, ANONYMOUS)
    .trim();
  // Operators whose names hold brackets or parentheses, kept whole while the rest is elided.
  const operators: string[] = [];
  text = text.replace(/operator(<<=|>>=|<=>|<<|>>|->\*|->|<=|>=|<|>|\(\)|\[\])/g, (match) => {
    operators.push(match);
    return `operator\uE000${operators.length - 1}\uE000`;
  });
  // Template arguments, innermost first (they may hold parentheses: std::function<void (int)>).
  for (let previous = ''; previous !== text;) {
    previous = text;
    text = text.replace(/<[^<>]*>/g, '');
  }
  text = text.replace(/\s+const$/, '').replace(/\s*&{1,2}$/, '');
  // The parameter list: the balanced group that ends the symbol.
  if (text.endsWith(')')) {
    let depth = 0;
    for (let i = text.length - 1; i >= 0; i--) {
      if (text[i] === ')') depth++;
      else if (text[i] === '(' && --depth === 0) {
        text = text.slice(0, i);
        break;
      }
    }
  }
  // The return type: whatever stands before the name, separated by a space at bracket depth 0.
  const space = lastTopLevelSpace(text);
  if (space >= 0) text = text.slice(space + 1);
  return text
    .replace(/operator\uE000(\d+)\uE000/g, (_match, index: string) => operators[Number(index)]!)
    .trim();
}

const ANONYMOUS = '{anonymous}';

/** What compilers and linkers append to a symbol: `.localalias`, `.isra.0`, `.lto_priv.4`. */
const LINKER_SUFFIX =
  /\.(localalias|constprop\.\d+|isra\.\d+|part\.\d+|cold|lto_priv\.\d+|llvm\.\d+)\b/g;

function isAnonymousPart(part: string): boolean {
  return part === ANONYMOUS || part.startsWith('{lambda') || part.startsWith('{unnamed');
}

/** Namespaces that say nothing about what the code does, dropped before a function's name. */
const NAMESPACE_PARTS = new Set([
  'at',
  'c10',
  'std',
  'torch',
  'detail',
  'details',
  'native',
  'impl',
  'generated',
  'autograd',
  'cuda',
  'meta',
  'cub',
  'jit',
  'dynamo',
  'python',
  'utils',
  'functorch',
  'inductor',
  '_ops',
  '__cxx11',
  '__gnu_cxx',
]);

function lastTopLevelSpace(text: string): number {
  let depth = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text[i];
    if (c === ')' || c === ']' || c === '}') depth++;
    else if (c === '(' || c === '[' || c === '{') depth--;
    else if (c === ' ' && depth === 0 && !text.slice(0, i).endsWith('operator')) return i;
  }
  return -1;
}

/** user-frame.ts autogradNodeOf before. */
export function oldAutogradNodeOf(name: string): string | null {
  const match =
    /^torch::autograd::(?:generated::)?(\w*Backward\w*|AccumulateGrad|CopySlices|PyNode)::\w+$/.exec(
      oldQualifiedNativeName(name),
    );
  return match === null ? null : match[1]!;
}

/** user-frame.ts atenOpOf before. */
export function oldAtenOpOf(name: string): string | null {
  const match = /^at::_ops::(\w+)::call$/.exec(oldQualifiedNativeName(name));
  return match === null ? null : match[1]!;
}

/** category-rules.ts BACKWARD_FRAME before. */
export const OLD_BACKWARD_FRAME =
  /torch::autograd::Engine::|torch::autograd::(generated::)?\w*Backward\w*::apply|AccumulateGrad|[\\/]torch[\\/]autograd[\\/]__init__\.py:\d+ backward$|[\\/]torch[\\/]_tensor\.py:\d+ backward$/;

/** user-frame.ts BINARY_FILE before. */
export const OLD_BINARY_FILE = /\.(o|so(\.\d+)*|a|dylib|dll|pyd)$/;

/** user-frame.ts PYTHON_SOURCE before. */
export const OLD_PYTHON_SOURCE = /\.(py|pyw|pyx)$/;

/** detail-rows.ts forwardFrameLines' file before. */
export function oldForwardFrameFile(text: string): string {
  return /File "([^"]+)"/.exec(text)?.[1] ?? /(\S+\.py):\d+/.exec(text)?.[1] ?? '';
}

/** find-steps.ts step family key before. */
export function oldWithoutTrailingNumber(name: string): string {
  return name.replace(/[#_\s-]*\d+$/, '');
}

/** detail-rows.ts tooltip line before. */
export function oldOneLine(text: string, maxChars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= maxChars ? flat : `${flat.slice(0, maxChars - 1)}…`;
}
