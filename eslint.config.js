// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: './tsconfig.test.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      'no-console': 'error',
      'max-params': ['error', 3],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@guildhall/*/src/*', '@guildhall/*/dist/*'],
              message: 'Import a package through its entry point.',
            },
            {
              group: [
                '**/storage/sqlite/*',
                '**/storage/postgres/*',
                '**/bus/memory/*',
                '**/bus/nats/*',
              ],
              message:
                'Storage and bus drivers are chosen only in app.ts: import the folder index.',
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read the environment only in main.ts and config.ts.',
        },
      ],
    },
  },
  {
    files: [
      'packages/server/src/main.ts',
      'packages/server/src/config.ts',
      '**/*.test.ts',
      'packages/server/test/**',
      'bench/**',
      '.ci/**',
      'vitest.config.ts',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // The composition root and tests pick drivers; everything else sees only the interfaces.
    files: ['packages/server/src/app.ts', '**/*.test.ts', 'packages/server/test/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['bench/**', '.ci/**', 'packages/server/src/cli/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
