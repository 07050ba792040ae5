/**
 * The guide pages' and the README's examples (docs/examples/): each page shows its example file
 * verbatim after a `<!-- example: docs/examples/<file> -->` marker, and the non-React examples
 * run. The typecheck compiles them (tsconfig.json includes docs/examples) under the repository's
 * strict settings, so what the README shows compiles as shown.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const docsDir = join(root, 'docs');
const examplesDir = join(docsDir, 'examples');

/** The guide pages that must each show at least one example. */
const guidePages = [
  'getting-started.md',
  'Entity.md',
  'All.md',
  'Collection.md',
  'Union.md',
  'Values.md',
  'Query.md',
  'Scalar.md',
  'Invalidate.md',
  'Lazy.md',
  'useQuery.md',
  'useSuspense.md',
  'useFetch.md',
  'useCache.md',
  'useController.md',
  'resource.md',
  'pagination.md',
  'useSubscription.md',
  'useLive.md',
  'live-data.md',
  'useMutation.md',
  'useDLE.md',
  'useInfinite.md',
  'boundaries.md',
  'useDebounce.md',
  'mutations.md',
  'rowStatus.md',
  'gc.md',
];

interface Marker {
  page: string;
  /** 1-based line of the marker. */
  line: number;
  /** The path in the marker, relative to the repository root. */
  file: string;
  /** The fence line after the marker, if any. */
  fence: string | undefined;
  /** The fenced block's content, or undefined when the block does not close. */
  block: string | undefined;
}

/** Every example marker of a page (a path from the repository root), with the fenced block after it. */
function markersOf(page: string): Marker[] {
  const lines = readFileSync(join(root, page), 'utf8').split('\n');
  const markers: Marker[] = [];
  lines.forEach((text, index) => {
    if (!text.includes('<!-- example:')) return;
    const file = /^<!-- example: (\S+) -->$/.exec(text)?.[1] ?? `malformed marker: ${text}`;
    const fence = lines[index + 1];
    const end = lines.indexOf('```', index + 2);
    const block = end === -1 ? undefined : lines.slice(index + 2, end).join('\n');
    markers.push({ page, line: index + 1, file, fence, block });
  });
  return markers;
}

const allPages = ['README.md', ...readdirSync(docsDir).filter(name => name.endsWith('.md')).map(name => `docs/${name}`)];
const allMarkers = allPages.flatMap(markersOf);

describe('docs pages show their example files verbatim', () => {
  test('every guide page has an example marker', () => {
    const without = guidePages.filter(page => !allMarkers.some(marker => marker.page === `docs/${page}`));
    expect(without).toEqual([]);
  });

  test('the README shows its quick start and its React example from example files', () => {
    const shown = allMarkers.filter(marker => marker.page === 'README.md').map(marker => marker.file);
    expect(shown).toEqual(['docs/examples/readme.ts', 'docs/examples/readme-react.tsx']);
  });

  test.each(allMarkers.map(marker => [`${marker.page}:${marker.line}`, marker] as const))('%s', (_, marker) => {
    expect(marker.file).toMatch(/^docs\/examples\/[\w.-]+\.tsx?$/);
    expect(existsSync(join(root, marker.file))).toBe(true);
    // The fence's language follows the file: ts for .ts, tsx for .tsx.
    expect(marker.fence).toBe(marker.file.endsWith('.tsx') ? '```tsx' : '```ts');
    const source = readFileSync(join(root, marker.file), 'utf8');
    expect(marker.block).toBe(source.replace(/\n+$/, ''));
  });

  test('every example file is shown on a page', () => {
    const shown = new Set(allMarkers.map(marker => marker.file));
    const orphans = readdirSync(examplesDir)
      .map(name => `docs/examples/${name}`)
      .filter(file => !shown.has(file));
    expect(orphans).toEqual([]);
  });
});

type Module = Record<string, any>;

/**
 * RTK's development middlewares warn when one check of an action takes more than 32 ms: a
 * statement about how busy the machine is (a cold module registry on a shared CI core), not
 * about the example, so it is the one warning the examples may cause.
 */
const SLOW_CHECK = /^\w+ took \d+ms, which is more than the warning threshold of \d+ms\./;

/**
 * Loads an example in its own module registry (each example declares its own `User`, `Post`…
 * with the same keys, which one registry would warn about) and calls `run()` when it has one.
 * The examples must run without warnings.
 */
function load(file: string): { module: Module; result: any } {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
  try {
    let loaded: Module = {};
    let result: any;
    jest.isolateModules(() => {
      loaded = require(join(examplesDir, file)) as Module;
      result = typeof loaded.run === 'function' ? loaded.run() : undefined;
    });
    const warnings = warn.mock.calls.map(call => String(call[0])).filter(message => !SLOW_CHECK.test(message));
    expect(warnings).toEqual([]);
    return { module: loaded, result };
  } finally {
    warn.mockRestore();
  }
}

describe('the examples run', () => {
  test('react-native: AppState turning active and NetInfo reconnecting call refetch; remove() stops both', () => {
    const appState: Array<(state: string) => void> = [];
    const netInfo: Array<(state: { isConnected: boolean | null }) => void> = [];
    const removed: string[] = [];
    const globals = globalThis as Record<string, unknown>;
    globals.AppState = {
      addEventListener: (_: string, listener: (state: string) => void) => {
        appState.push(listener);
        return { remove: () => removed.push('AppState') };
      },
    };
    globals.NetInfo = {
      addEventListener: (listener: (state: { isConnected: boolean | null }) => void) => {
        netInfo.push(listener);
        return () => removed.push('NetInfo');
      },
    };
    try {
      const { module } = load('react-native.ts');
      const refetch = jest.fn();
      const stopFocus = module.appFocus(refetch);
      const stopOnline = module.reconnect(refetch);
      appState[0]!('background');
      netInfo[0]!({ isConnected: true });
      expect(refetch).toHaveBeenCalledTimes(0);
      appState[0]!('active');
      expect(refetch).toHaveBeenCalledTimes(1);
      netInfo[0]!({ isConnected: false });
      netInfo[0]!({ isConnected: true });
      netInfo[0]!({ isConnected: true });
      expect(refetch).toHaveBeenCalledTimes(2);
      stopFocus();
      stopOnline();
      expect(removed).toEqual(['AppState', 'NetInfo']);
      const remove = module.listen();
      expect([appState.length, netInfo.length]).toEqual([2, 2]);
      remove();
      expect(removed).toEqual(['AppState', 'NetInfo', 'AppState', 'NetInfo']);
    } finally {
      delete globals.AppState;
      delete globals.NetInfo;
    }
  });

  test('gc: a retained response and the rows it reaches stay; the rest goes a minute later', () => {
    jest.useFakeTimers();
    try {
      const { module, result } = load('gc.ts');
      expect(result).toEqual({ requests: 0, rows: 0 });
      jest.advanceTimersByTime(60_000);
      expect(module.aMinuteLater()).toEqual({ requests: ['GET /posts/1'], users: ['ann'] });
    } finally {
      jest.useRealTimers();
    }
  });

  test('getting-started: writes, an older response that loses, an error, memoized reads', () => {
    const { result } = load('getting-started.ts');
    expect(result).toEqual({
      title: 'Hi',
      author: 'Ann B.',
      secondTitle: 'Again',
      secondStatus: 'valid',
      error: 'offline',
      missing: undefined,
      sameAfterOtherWrite: true,
    });
  });

  test('Entity: instances, nested entities, a Date field, numeric pks', () => {
    const { result } = load('Entity.ts');
    expect(result).toEqual({
      isPost: true,
      title: 'Hello',
      author: 'Ann B.',
      comments: ['First', 'Second'],
      year: 2024,
      commentKeys: ['5', '6'],
      commentRow: { id: 5, body: 'First' },
    });
  });

  test('Entity indexes: a lookup by username, kept current by a rename and a deletion', () => {
    const { result } = load('EntityIndexes.ts');
    expect(result).toEqual({
      bob: 'm2',
      sameAsById: true,
      anna: 'm1',
      ann: undefined,
      deleted: undefined,
      index: '{"ann":null,"bob":null,"anna":["m1"]}',
    });
  });

  test('All: undefined, then [], then the live rows; several tables in member order', () => {
    const { result } = load('All.ts');
    expect(result).toEqual({
      before: undefined,
      empty: [],
      users: ['Ann', 'Cid'],
      fromEndpoint: 2,
      pets: ['Tom', 'Rex'],
    });
  });

  test('Collection: a push reaches the matching lists only, a remove every list', () => {
    const { result } = load('Collection.ts');
    expect(result).toEqual({
      reactByTitle: ['1', '9'],
      react: ['9'],
      vue: ['3'],
      vueUnchanged: true,
      removedPost: 'B',
      angular: undefined,
      pk: '{"group":"react","page":"1"}',
    });
  });

  test('Collection filters: a create reaches the lists its filter picks, sorted by its merge; a move goes first', () => {
    const { result } = load('collectionFilters.ts');
    expect(result).toEqual({ ann: ['1', '2'], annBoard: ['2'], bob: ['3', '4'] });
  });

  test('resource: the five endpoints, their URLs and methods, and what each answer writes', () => {
    const { result } = load('resource.ts');
    expect(result).toEqual({
      urls: [
        'https://api.example.com/react/posts/1',
        'https://api.example.com/react/posts?orderBy=title',
        'PUT PATCH DELETE POST',
      ],
      titles: ['Uno', 'Three'],
    });
  });

  test("resource with Collection options: one list per project whatever the view, and a create reaches it", () => {
    const { result } = load('resourceCollection.ts');
    expect(result).toEqual({ titles: ['Plan', 'Ship'], oneList: true, listKeys: ['{"project":"site","sortBy":"due"}'] });
  });

  test('pagination: a page appends once per post, keeps its cursor; a first page set by hand replaces the list', () => {
    const { result } = load('pagination.ts');
    expect(result).toEqual({
      firstPage: ['One', 'Two'],
      afterPage: ['One', 'Two', 'Three'],
      next: 'c3',
      replaced: ['Zero', 'One'],
    });
  });

  test('pagination both ways: a previous page goes first; maxPages drops the page at the other end', () => {
    const { result } = load('paginationBothWays.ts');
    expect(result).toEqual({
      before: ['18', '19', '20', '21'],
      bounded: ['20', '21', '22', '23', '24', '25'],
      back: ['18', '19', '20', '21', '22', '23'],
    });
  });

  test('Union: mixed members, stored as { id, schema } refs', () => {
    const { module, result } = load('Union.ts');
    expect(result.labels).toEqual(['Ann', 'Admins']);
    expect(result.stored).toEqual([
      { id: '1', schema: 'users' },
      { id: '1', schema: 'groups' },
    ]);
    expect(result.group).toBeInstanceOf(module.Group);
    expect(result.group.title).toBe('Admins');
  });

  test('Values: maps keyed by name, a pk from the map key, deleted members dropped', () => {
    const { result } = load('Values.ts');
    expect(result).toEqual({
      statusKeys: ['api'],
      api: 'up',
      theme: 'dark',
      locale: 'fr',
      withoutResponse: undefined,
    });
  });

  test('Query: sorted order, counts, a group-by and a join', () => {
    const { result } = load('Query.ts');
    expect(result).toEqual({
      noUsers: undefined,
      byTitle: ['Context', 'Hooks', 'Reducers'],
      byDate: ['2', '3', '1'],
      sameResult: true,
      users: 2,
      admins: 1,
      postIdsByUser: { u1: ['1', '3'], u2: ['2'] },
      fromStats: 64000,
      fromTicker: 65000,
    });
  });

  test('Scalar: a value per lens from one list, read without knowing the lens it was loaded at, and a create', () => {
    const { result } = load('Scalar.ts');
    expect(result).toEqual({
      acmeAtB: 'Acme 0.3',
      createdAtA: 'Initech undefined',
      atA: ['Acme 0.5', 'Globex 0.2', 'Initech 0.1'],
      sameViewOfA: true,
      rowsUntouched: true,
      sent: [
        'GET /companies?portfolio=A',
        'GET /companies/columns?portfolio=B&ids=1,2',
        'GET /companies/columns?portfolio=A&ids=3',
      ],
      cellsOfB: 3,
    });
  });

  test('Scalar in two dimensions: a rename in one locale seen in every currency, each column fetched per lens', () => {
    const { result } = load('ScalarDimensions.ts');
    expect(result).toEqual({
      enUSD: 'M-1 White Mug 4 10',
      enEUR: 'M-1 White Mug 4 9',
      frEUR: 'M-1 Tasse blanche 9',
      frUSD: 'M-1 Tasse blanche 10',
      names: ['Product|1|en-US', 'Product|1|fr-FR'],
      prices: ['Product|1|USD', 'Product|1|EUR'],
    });
  });

  test('Scalar with resource(): one list for every portfolio, each with its own values, a rename under both', () => {
    const { result } = load('ScalarResource.ts');
    expect(result).toEqual({
      atA: ['Acme Co', 0.5],
      atB: ['Acme Co', 0.3],
      url: 'https://api.example.com/companies?portfolio=B',
    });
  });

  test('Invalidate: a tombstone, then a rewrite that keeps none of the old fields', () => {
    const { result } = load('Invalidate.ts');
    expect(result).toEqual({ post: undefined, list: ['4'], row: null, backTitle: 'Back', backBody: '' });
  });

  test('Lazy: ids on the entity, entities through .query, both ways round the cycle', () => {
    const { result } = load('Lazy.ts');
    expect(result).toEqual({ ids: ['b1', 'b2'], names: ['North', 'South'], backToDepartments: ['Physics'] });
  });

  test('README: a write, a memoized read and a stored response; fetching is defined, not run', () => {
    const { module } = load('readme.ts');
    expect(module.post).toBeInstanceOf(module.Post);
    expect(module.post.author.name).toBe('Ann');
    expect(module.cache.selectQuery(module.store.getState(), module.Post, '1')).toBe(module.post);
    expect(module.cache.selectResponse(module.store.getState(), module.getPosts).data.map((post: { title: string }) => post.title)).toEqual(['Again']);
    expect(module.getGroupPosts.url({ group: 'react', orderBy: 'title' })).toBe('https://api.example.com/react/posts?orderBy=title');
    expect(typeof module.fetchReactPosts).toBe('function');
  });

  test('live data: a stream written message by message, a bad message reported; polling defined, not run', () => {
    const { module, result } = load('live-data.ts');
    expect(result).toEqual({ btc: 64100, eth: 3100, errors: ['SyntaxError'], status: 'valid' });
    expect(module.getTicker.pollFrequency).toBe(10_000);
    expect(typeof module.watchTicker).toBe('function');
  });

  test.each(['useQuery.tsx', 'useSuspense.tsx', 'useFetch.tsx', 'useCache.tsx', 'useController.tsx', 'useSubscription.tsx', 'useLive.tsx', 'readme-react.tsx'])(
    '%s loads and exports its components',
    file => {
      const { module } = load(file);
      expect(typeof module.App).toBe('function');
    },
  );
});
