/** Jest runs the TypeScript tests through ts-jest; type errors are the typecheck's job (npm run typecheck). */
const path = require('node:path');

/** @type {import('jest').Config} */
const base = {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  // waitFor's timeout, fit for a loaded machine (DOM tests only).
  setupFilesAfterEnv: ['<rootDir>/__tests__/fixtures/setupTests.ts'],
  moduleNameMapper: {
    // Sources import siblings with the `.js` extension that Node's ES modules need.
    '^(\\.{1,2}/.*)\\.js$': '$1',
    // The docs' examples import the package by name, as users do.
    '^lenscache$': '<rootDir>/src/index.ts',
    '^lenscache/react$': '<rootDir>/src/react/index.ts',
    '^lenscache/test$': '<rootDir>/src/test/index.ts',
  },
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }],
  },
};

// React 18 for the "react 18" project, installed by npm from __tests__/react18/package.json.
const react18 = path.join(__dirname, '__tests__/react18/node_modules');

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    {
      ...base,
      displayName: 'lenscache',
      testMatch: ['**/*.test.ts', '**/*.test.tsx'],
      globals: { EXPECTED_REACT_MAJOR: '19' },
    },
    {
      ...base,
      // The hook tests and lenscache/test's again, with react and react-dom 18 in place of 19 (react-redux and
      // @testing-library/react support both).
      displayName: 'react 18',
      globals: { EXPECTED_REACT_MAJOR: '18' },
      testMatch: ['**/__tests__/react/*.test.tsx', '**/__tests__/testing/*.test.tsx'],
      moduleNameMapper: {
        ...base.moduleNameMapper,
        '^react$': `${react18}/react`,
        '^react/(.*)$': `${react18}/react/$1`,
        '^react-dom$': `${react18}/react-dom`,
        '^react-dom/(.*)$': `${react18}/react-dom/$1`,
      },
    },
  ],
};
