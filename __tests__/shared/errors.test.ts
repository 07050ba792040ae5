import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode, LensCacheError } from '../../src/index';

const docs = readFileSync(join(__dirname, '../../docs/errors.md'), 'utf8');

test.each(Object.values(ErrorCode))('docs/errors.md has a section for %s', code => {
  expect(docs).toMatch(new RegExp(`^## ${code}$`, 'm'));
});

test('LensCacheError carries its code and status', () => {
  const error = new LensCacheError(ErrorCode.MISSING_PK, 'no pk', 400);
  expect(error).toBeInstanceOf(Error);
  expect(error.code).toBe('MISSING_PK');
  expect(error.status).toBe(400);
});
