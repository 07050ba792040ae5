/** The reducer's record of which keys each write changed per table (src/base/tableDiffs.ts). */
import { changedKeysSince, recordTableDiff, tableId } from '../../src/base/tableDiffs';

const changedKeys = (seen: object, now: object, limit: number) => changedKeysSince(tableId(seen), now, limit);

describe('tableDiffs', () => {
  test('follows a chain of recorded writes back to the table a read saw', () => {
    const t0 = {};
    const t1 = {};
    const t2 = {};
    recordTableDiff(t0, t1, ['a']);
    recordTableDiff(t1, t2, ['b', 'c']);
    expect(changedKeys(t1, t2, 10)).toEqual(['b', 'c']);
    expect(changedKeys(t0, t2, 10)?.sort()).toEqual(['a', 'b', 'c']);
  });

  test('answers undefined for unrelated tables, a newer table, or too many keys', () => {
    const t0 = {};
    const t1 = {};
    recordTableDiff(t0, t1, ['a', 'b', 'c']);
    expect(changedKeys({}, t1, 10)).toBeUndefined();
    expect(changedKeys(t1, t0, 10)).toBeUndefined();
    expect(changedKeys(t0, t1, 2)).toBeUndefined();
  });

  test('forgets links beyond its chain limit, so old tables are not held', () => {
    const tables = [{}];
    for (let i = 1; i <= 40; i++) {
      tables.push({});
      recordTableDiff(tables[i - 1]!, tables[i]!, [`k${i}`]);
    }
    // Every 32 writes a record starts a new chain: a read that far behind walks its rows again.
    expect(changedKeys(tables[35]!, tables[40]!, 100)).toEqual(['k40', 'k39', 'k38', 'k37', 'k36']);
    expect(changedKeys(tables[31]!, tables[32]!, 100)).toEqual(['k32']);
    expect(changedKeys(tables[0]!, tables[40]!, 100)).toBeUndefined();
  });
});
