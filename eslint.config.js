import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const pureSharedMessage =
  'src/shared is pure TypeScript that runs in Node, Electron and the browser alike: no electron, ' +
  'Node built-ins, React or DOM. Pass data in from the caller instead.';

/**
 * The page and the CLI read the analyzed snapshot (camelCase), never a JSON document's snake_case
 * fields back (one statement: two blocks use it, since a file's last matching block sets the rule).
 */
const NO_SNAKE_CASE_FIELDS = {
  selector: 'MemberExpression[computed=false][property.name=/^[a-z0-9]+(_[a-z0-9]+)+$/]',
  message:
    "A snake_case field is a JSON document's (allocscope.summary/1, allocscope.report/1): read the analyzed snapshot instead (device.figures, …).",
};

/** No module-level Map/Set/WeakMap/WeakSet in the page (issue 21: one home for state). */
const NO_MODULE_LEVEL_CACHES = {
  selector:
    ':matches(Program, Program > ExportNamedDeclaration) > VariableDeclaration > VariableDeclarator > NewExpression[callee.name=/^(Weak)?(Map|Set)$/]',
  message:
    'No module-level cache in src/renderer: keep derived data in the DerivedCache of the snapshot or device it comes from (@shared/analyzed/derived-cache), or on the object that owns it.',
};

const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_'));

/**
 * The folders of src/shared from the bottom up: a folder may import from the layers before it and
 * from its own folder, never from a later layer (the order is the data path; `errors` and
 * `format`, the words and units, sit at the bottom so every layer words its warnings alike). The
 * list is the one statement of the order: the lint message below is written from it.
 */
const SHARED_LAYERS = [
  { name: 'errors' },
  { name: 'format' },
  { name: 'limits' },
  { name: 'json' },
  { name: 'pickle' },
  { name: 'snapshot' },
  { name: 'analysis' },
  { name: 'analyzed' },
  { name: 'state' },
  { name: 'chart' },
  { name: 'holders' },
  { name: 'steps' },
  { name: 'compare' },
  { name: 'oom' },
  { name: 'report' },
  // Pictures and documents are siblings at the top: neither is built from the other.
  { name: 'render', notFrom: ['report'] },
];

const SHARED_ORDER = SHARED_LAYERS.map((layer) => layer.name).join(' → ');

function sharedImportRestrictions(forbiddenFolders, layer) {
  const layerPatterns = forbiddenFolders.map((folder) => ({
    group: [`../${folder}`, `../${folder}/**`, `@shared/${folder}`, `@shared/${folder}/**`],
    message:
      `src/shared/${layer?.name} may not import from src/shared/${folder}: the layers of ` +
      `src/shared are ${SHARED_ORDER} (render and report are siblings), and a layer imports ` +
      'only from the layers before it (src/README.md).',
  }));
  return {
    paths: ['electron', 'react', 'react-dom', ...nodeBuiltins].map((name) => ({
      name,
      message: pureSharedMessage,
    })),
    patterns: [
      {
        group: ['node:*', 'electron/*', 'react/*', 'react-dom/*'],
        message: pureSharedMessage,
      },
      {
        group: ['**/renderer', '**/renderer/**', '**/main', '**/main/**'],
        message: 'src/shared must not import from src/renderer or src/main.',
      },
      {
        group: ['**/preload', '**/preload/**', '**/cli', '**/cli/**'],
        message: 'src/shared must not import from src/preload or src/cli.',
      },
      ...layerPatterns,
    ],
  };
}

/**
 * The floors of src/renderer from the bottom up, each a list of its folders: a folder imports from
 * its own floor and the floors below, never from a floor above (views talk through the state and
 * the analysed snapshot; the shell reads the views, no view reads the shell). The list is the one
 * statement of the floors: the lint message below is written from it.
 */
const RENDERER_FLOORS = [
  { name: 'workers', folders: ['workers'] },
  { name: 'platform', folders: ['api'] },
  { name: 'widgets', folders: ['ui', 'canvas'] },
  { name: 'state', folders: ['state'] },
  {
    name: 'views',
    folders: [
      'allocations',
      'timeline',
      'segments',
      'fragmentation',
      'oom',
      'holders',
      'steps',
      'compare',
      'ranks',
      'moment',
      'export',
    ],
  },
  // The one list of the lower views, and the help that lists their keys.
  { name: 'registry', folders: ['registry', 'help'] },
  { name: 'shell', folders: ['shell'] },
];

const RENDERER_ORDER = RENDERER_FLOORS.map(
  (floor) => `${floor.name} (${floor.folders.join(', ')})`,
).join(' → ');

function rendererFloorRestrictions(floor, level) {
  return {
    patterns: RENDERER_FLOORS.slice(level + 1).flatMap((above) =>
      above.folders.map((folder) => ({
        group: [`../${folder}`, `../${folder}/**`],
        message:
          `The ${floor.name} floor (src/renderer/{${floor.folders.join(',')}}) may not import ` +
          `from src/renderer/${folder}: the floors of src/renderer are ` +
          `${RENDERER_ORDER}, and a folder imports only from its floor and the floors below ` +
          '(src/README.md).',
      })),
    ),
  };
}

export default defineConfig(
  globalIgnores([
    'out/',
    'dist/',
    'node_modules/',
    'test-results/',
    'playwright-report/',
    'bench/.data/',
    'test/.generated/',
    '.tmp/',
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,

  // Type-aware rules, only the cheap and high-value ones: promises that are dropped or misused.
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },

  {
    files: [
      'src/main/**',
      'src/preload/**',
      'src/cli/**',
      'bench/**',
      'generators/**',
      'bin/**',
      'test/**',
      '*.config.{js,ts}',
      '**/*.{mjs,cjs}',
    ],
    languageOptions: { globals: globals.node },
  },

  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    ...reactHooks.configs.flat.recommended,
  },

  // The page and the CLI read the analyzed snapshot (camelCase), never a JSON document's
  // snake_case fields back: the documents are written at the edge (src/shared/report) and only
  // written.
  {
    files: ['src/renderer/**/*.{ts,tsx}', 'src/cli/**/*.ts'],
    ignores: ['src/renderer/**/*.test.ts', 'src/cli/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': ['error', NO_SNAKE_CASE_FIELDS],
    },
  },

  // Derived data lives with what it derives from (the shared layer's DerivedCache, or the object
  // that owns it: a chart, a plot); a module-level cache in the page outlives its snapshots and
  // is shared by every tab (issue 21).
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    ignores: ['src/renderer/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': ['error', NO_SNAKE_CASE_FIELDS, NO_MODULE_LEVEL_CACHES],
    },
  },

  // The CLI prints through src/cli/terminal-output.ts only, which shows a file's escape sequences
  // escaped (issue 20): a command cannot forget it.
  {
    files: ['src/cli/**/*.ts'],
    ignores: ['src/cli/terminal-output.ts', 'src/cli/**/*.test.ts'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        ...['stdout', 'stderr'].map((property) => ({
          object: 'process',
          property,
          message:
            'Print with printOut / printErr / printErrLine (src/cli/terminal-output.ts): they escape the control characters a file can carry.',
        })),
      ],
    },
  },

  // The layering rule: shared code depends on nothing platform-specific and on no app layer,
  // and each folder of src/shared only on the folders below it (SHARED_LAYERS, src/README.md).
  // Tests beside it may read fixtures from disk and use any layer.
  {
    files: ['src/shared/**/*.{ts,tsx}'],
    ignores: ['src/shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', sharedImportRestrictions([])],
      'no-restricted-globals': [
        'error',
        ...[
          'window',
          'document',
          'navigator',
          'location',
          'localStorage',
          'sessionStorage',
          'process',
          'Buffer',
          'require',
          '__dirname',
          '__filename',
        ].map((name) => ({ name, message: pureSharedMessage })),
      ],
    },
  },

  // One block per layer of src/shared: the same restrictions plus every layer above it.
  ...SHARED_LAYERS.map((layer, level) => ({
    files: [`src/shared/${layer.name}/**/*.{ts,tsx}`],
    ignores: ['src/shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        sharedImportRestrictions(
          [...SHARED_LAYERS.slice(level + 1).map((other) => other.name), ...(layer.notFrom ?? [])],
          layer,
        ),
      ],
    },
  })),

  // One block per floor of src/renderer: no import from a floor above (RENDERER_FLOORS).
  ...RENDERER_FLOORS.slice(0, -1).map((floor, level) => ({
    files: floor.folders.map((folder) => `src/renderer/${folder}/**/*.{ts,tsx}`),
    ignores: ['src/renderer/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', rendererFloorRestrictions(floor, level)],
    },
  })),

  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
