// `node scripts/fetch-walk.mjs`: which files of src/store/ one `cache.fetch` runs, from the thunk
// to the read its promise resolves to (docs/architecture.md, "One request, top to bottom").
// Counted with V8's precise coverage on the built ES modules (run `npm run build` first): after a
// warm-up fetch of another key, the counters are reset, one read of 20 posts is fetched and
// awaited, and every store file with a function that ran is listed in the order of its first
// function in the coverage report. Then the imports among those files are checked for a cycle
// (a module that would call back into the one that called it). Runs for createCache (every
// feature) and createLeanCache (none), as production runs (NODE_ENV=production unless set: the
// development-only checks have files of their own). Says when a lean walk is over the target of 10
// files; exit 1 when any walk has an import cycle.
import { Session } from 'node:inspector/promises';
import { readFileSync } from 'node:fs';
import { dirname, resolve, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist/esm/`;
const MAX_FILES = 10;

process.env.NODE_ENV ??= 'production';
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

const { configureStore } = await import('@reduxjs/toolkit');
const { createCache, createLeanCache, Entity } = await import(pathToFileURL(`${dist}index.js`).href);

class Post extends Entity {
  static key = 'Post';
  id = '';
  title = '';
}
const posts = group => Array.from({ length: 20 }, (_, i) => ({ id: `${group}-${i}`, title: `Post ${i}` }));
const getPosts = {
  key: ({ group }) => `GET /posts?group=${group}`,
  schema: [Post],
  fetch: async ({ group }) => posts(group),
};

async function walk(make) {
  const cache = make();
  const store = configureStore({
    reducer: { cache: cache.reducer },
    middleware: getDefault => getDefault({ serializableCheck: false, immutableCheck: false }).concat(cache.middleware),
  });
  await store.dispatch(cache.fetch(getPosts, { group: 'warm' }));
  await session.post('Profiler.takePreciseCoverage');
  const read = await store.dispatch(cache.fetch(getPosts, { group: 'react' }));
  const { result } = await session.post('Profiler.takePreciseCoverage');
  if (read.length !== 20) throw new Error('the fetch did not read back its 20 posts');
  return result
    .filter(script => script.url.startsWith(pathToFileURL(`${dist}store/`).href))
    .filter(script => script.functions.some(fn => fn.ranges[0].count > 0 && fn.functionName !== ''))
    .map(script => relative(dist, fileURLToPath(script.url)));
}

/** The cycles among `files`' static imports (each file's relative imports). */
function cycles(files) {
  const set = new Set(files);
  const imports = new Map(
    files.map(file => {
      const text = readFileSync(`${dist}${file}`, 'utf8');
      const found = [...text.matchAll(/from\s+['"](\.[^'"]+)['"]/g)].map(m =>
        relative(dist, resolve(dirname(`${dist}${file}`), m[1])),
      );
      return [file, found.filter(other => set.has(other))];
    }),
  );
  const found = [];
  const visit = (file, path) => {
    for (const next of imports.get(file)) {
      if (path.includes(next)) found.push([...path.slice(path.indexOf(next)), next].join(' → '));
      else visit(next, [...path, next]);
    }
  };
  for (const file of files) visit(file, [file]);
  return [...new Set(found)];
}

let failed = false;
for (const [name, make] of [
  ['createCache()', () => createCache()],
  ['createLeanCache()', () => createLeanCache()],
]) {
  const files = await walk(make);
  const loops = cycles(files);
  const over = name === 'createLeanCache()' && files.length > MAX_FILES ? ` (the target is ${MAX_FILES} at most)` : '';
  console.log(`${name}: ${files.length} files of src/store/${over}`);
  for (const file of files) console.log(`  ${file.replace(/\.js$/, '.ts')}`);
  for (const loop of loops) console.log(`  import cycle: ${loop}`);
  if (loops.length > 0) failed = true;
}
process.exit(failed ? 1 : 0);
