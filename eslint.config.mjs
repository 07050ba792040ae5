// ESLint: rules tsc does not check. Type-only imports are written `import type` (they vanish
// from the build, and a bundler never pulls a module in for a type).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '__tests__/react18/node_modules/**',
      'coverage/**',
      'example/nextjs/.next/**',
    ],
  },
  {
    files: [
      'src/**/*.ts',
      '__tests__/**/*.ts',
      '__tests__/**/*.tsx',
      'docs/examples/**/*.ts',
      'docs/examples/**/*.tsx',
    ],
    languageOptions: { parser: tseslint.parser },
    // Tests that load the library anew (production builds) name its types with import().
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-debugger': 'error',
      'no-var': 'error',
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
);
