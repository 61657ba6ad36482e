import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const pureSharedMessage =
  'src/shared is pure TypeScript that runs in Node, Electron and the browser alike: no electron, ' +
  'Node built-ins, React or DOM. Pass data in from the caller instead.';

const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_'));

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

  // The layering rule: shared code depends on nothing platform-specific and on no app layer.
  // Tests beside it may read fixtures from disk.
  {
    files: ['src/shared/**/*.{ts,tsx}'],
    ignores: ['src/shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
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
          ],
        },
      ],
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

  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
