// The floor under "10 lenses, cold" (docs/benchmarks.md, "Cold reads, fourth round"): what ten
// lens views of 1,000 posts cost at the least when each view is kept per row and lens, so that a
// later read returns the same object while the row and its cell are unchanged; against the join
// normalizr's adapter does, which keeps nothing per row (a changed cell rebuilds the lens's whole
// list). No library code runs here: both are the bare minimum of their kind, in plain objects.
//
//   node scripts/lens-join-floor.mjs [--n=1000] [--rounds=60]

const option = (name, fallback) =>
  Number(process.argv.find(arg => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const n = option('n', 1000);
const rounds = option('rounds', 60);
const LENSES = Array.from({ length: 10 }, (_, i) => `L${i}`);

class Post {
  id = '';
  title = '';
  author = null;
  comments = [];
  score = 0;
  rank = 0;
}
// The lens-free part of each post, as a read that shares it between lenses would hold it.
const posts = Array.from({ length: n }, (_, i) =>
  Object.assign(new Post(), { id: `p${i}`, title: `Title ${i}`, author: { id: `u${i % 100}` }, comments: [] }),
);
// The cells as lenscache stores them (one table, keyed `<entity>|<pk>|<lens>`), and per lens as
// the peers store them.
const cells = {};
const cellsByLens = {};
for (const lens of LENSES) {
  cellsByLens[lens] = {};
  for (let i = 0; i < n; i++) {
    const cell = { score: (i * 7) % 101, rank: i % 17 };
    cells[`Post|p${i}|${lens}`] = cell;
    cellsByLens[lens][`p${i}`] = cell;
  }
}

/** Ten lens lists from cold, each view kept per post and lens with the cell it was built from. */
function keptPerRow() {
  const views = new WeakMap();
  return LENSES.map(lens =>
    posts.map(post => {
      const cell = cells[`Post|${post.id}|${lens}`];
      let byLens = views.get(post);
      if (byLens === undefined) views.set(post, (byLens = new Map()));
      const kept = byLens.get(lens);
      if (kept !== undefined && kept.cell === cell) return kept.view;
      const view = Object.assign(Object.create(Post.prototype), post);
      view.score = cell.score;
      view.rank = cell.rank;
      byLens.set(lens, { cell, view });
      return view;
    }),
  );
}

/** Ten lens lists as normalizr's adapter joins them: a copy of each post with its cell's fields. */
function joinedOnly() {
  return LENSES.map(lens => {
    const byPost = cellsByLens[lens];
    return posts.map(post => {
      const cell = byPost[post.id];
      const view = Object.assign({}, post);
      view.score = cell.score;
      view.rank = cell.rank;
      return view;
    });
  });
}

function median(run) {
  const times = [];
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

for (let pass = 0; pass < 2; pass++) {
  const kept = median(keptPerRow);
  const joined = median(joinedOnly);
  console.log(
    `${n} posts, 10 lenses: views kept per row ${kept.toFixed(2)} ms, joined only ${joined.toFixed(2)} ms (${(kept / joined).toFixed(2)}x)`,
  );
}
