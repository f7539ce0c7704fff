// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'docs/', '.bench-build/', '.stryker-tmp/', 'reports/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='setTimeout'][arguments.length>0] > ArrowFunctionExpression[body.type='Identifier'][body.name='resolve']", message: 'Tests must not sleep; wait on events or a simulated clock.' },
      ],
    },
  },
  {
    // Pure layers never import runtime code (docs/architecture.md, "Layers").
    files: ['src/dialogue/**', 'src/context/**', 'src/request/**', 'src/policy/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['**/runtime/**', '**/runtime', '**/machines/**', '**/cli/**', '**/store/**', '**/inspect/**', 'xstate', '@xstate/*'], message: 'Pure modules must not import runtime code.' },
      ] }],
    },
  },
  {
    files: ['src/dialogue/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['**/context/**', '**/request/**', '**/policy/**', '**/runtime/**', '**/machines/**', 'xstate'], message: 'dialogue is the bottom layer.' },
      ] }],
    },
  },
);
