import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import layerBoundaries from './eslint-rules/layer-boundaries.js';

export default tseslint.config(
  {
    ignores: ['node_modules/', 'out/', 'dist/', 'build/', 'test-results/', 'playwright-report/', '.scratch/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { lemming: { rules: { 'layer-boundaries': layerBoundaries } } },
    rules: {
      'lemming/layer-boundaries': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='only']",
          message: 'Remove .only before committing.',
        },
      ],
    },
  },
  {
    // Tests dig into raw event JSON whose shape is the thing under test.
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['renderer/**/*.{ts,tsx}', 'test/harness/harness-preload.ts'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
