// The bench's cases and how one is sampled, shared by `npm run bench` (run.mjs) and the A/B of two
// builds (ab.mjs).
import { makeColumns } from './data.mjs';

export const LENSES = Array.from({ length: 10 }, (_, i) => `L${i}`);

/** The cases, in table order: [name, what the library must support, setup for each sample, timed fn]. */
export function cases(n) {
  let counter = 0;
  const post = () => `p${counter++ % n}`;
  const user = () => `u${counter++ % Math.max(1, Math.floor(n / 10))}`;
  return [
    ['write into an empty store', 'write', null, (lib, data) => lib.write(data)],
    ['same response again (populated store)', 'rewrite', null, (lib, data) => lib.rewrite(data)],
    ['cold read of the nested list', 'read', lib => lib.resetMemo(), lib => lib.read()],
    ['denormalize without memo', 'denormalize', lib => lib.resetMemo?.(), lib => lib.denormalize()],
    ['first read after an identical refetch', 'read', (lib, data) => lib.rewrite(data), lib => lib.read()],
    ['memoized read, unchanged store', 'read', null, lib => lib.read()],
    [
      'update one post, re-read',
      'updatePost',
      null,
      lib => {
        lib.updatePost(post(), `Changed ${counter}`);
        return lib.read();
      },
    ],
    [
      'update one shared user, re-read',
      'updateUser',
      null,
      lib => {
        lib.updateUser(user(), `Renamed ${counter}`);
        return lib.read();
      },
    ],
    ['sorted query, cold', 'sorted', lib => lib.resetMemo(), lib => lib.sorted()],
    ['sorted query, memoized', 'sorted', null, lib => lib.sorted()],
    ['count query, cold', 'count', lib => lib.resetMemo(), lib => lib.count()],
    ['count query, memoized', 'count', null, lib => lib.count()],
    ['groupBy query, cold', 'groupBy', lib => lib.resetMemo(), lib => lib.groupBy()],
    ['groupBy query, memoized', 'groupBy', null, lib => lib.groupBy()],
    [
      'update one post, re-run the sorted query',
      'sorted',
      null,
      lib => {
        lib.updatePost(post(), `Changed ${counter}`);
        return lib.sorted();
      },
    ],
    ['10 lenses, no memo', 'denormalizeLens', null, lib => LENSES.map(lens => lib.denormalizeLens(lens))],
    ['10 lenses, cold', 'readLens', lib => lib.resetMemo(), lib => LENSES.map(lens => lib.readLens(lens))],
    ['10 lenses, memoized', 'readLens', null, lib => LENSES.map(lens => lib.readLens(lens))],
    [
      '10 lenses after one cell of one lens changed',
      'readLens',
      null,
      lib => {
        lib.updateCell('L3', post(), counter);
        return LENSES.map(lens => lib.readLens(lens));
      },
    ],
  ];
}

export function prepare(lib, response, n, lens) {
  const data = lib.prepare ? lib.prepare(response) : response;
  if (lens) {
    lib.writeLensList(data);
    for (const name of LENSES) lib.writeColumns(name, makeColumns(n, name));
  } else {
    lib.write(data);
  }
  return data;
}

/** The adapter's store filled for a case and read once (the memoized cases then start warm); returns the data. */
export function ready(adapter, caseName, needs, response, n) {
  const lens = caseName.includes('lenses');
  const data = prepare(adapter, response, n, lens);
  adapter.read?.();
  if (lens) LENSES.forEach(name => adapter.readLens(name));
  else if (needs === 'sorted') adapter.sorted();
  return data;
}

/**
 * The median time of `fn` after a setup run before each sample (a memo reset, a refetch). The
 * budget counts the setup too: tinybench counts only the timed function, so a setup of
 * milliseconds before a read of microseconds ran for minutes. At least 5 samples after 2 warmups.
 */
export function withSetup(adapter, data, before, fn, time) {
  const samples = [];
  const until = performance.now() + time;
  for (let i = 0; i < 2; i++) {
    before(adapter, data);
    fn(adapter, data);
  }
  while (samples.length < 5 || performance.now() < until) {
    before(adapter, data);
    const start = performance.now();
    fn(adapter, data);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const mid = samples.length >> 1;
  return samples.length % 2 ? samples[mid] : (samples[mid - 1] + samples[mid]) / 2;
}
