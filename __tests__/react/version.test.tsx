/** Each jest project runs the React it names: 19 from the root, 18 from __tests__/react18 (jest.config.js). */
import { version } from 'react';
import { version as domVersion } from 'react-dom';

declare const EXPECTED_REACT_MAJOR: string;

test('react and react-dom are the release this project is meant to test', () => {
  expect(version.split('.')[0]).toBe(EXPECTED_REACT_MAJOR);
  expect(domVersion).toBe(version);
});
