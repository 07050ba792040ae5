// The benchmark's data: N posts, each with an embedded author and 2 comments with embedded
// authors, authors drawn from N/10 users (so one user appears many times per response, as
// separate objects). Seeded, so every run and every library sees the same response.

export function makeResponse(n, seed = 42) {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const users = Math.max(1, Math.floor(n / 10));
  const user = () => {
    const id = `u${Math.floor(random() * users)}`;
    return { id, name: `User ${id}` };
  };
  return Array.from({ length: n }, (_, i) => ({
    id: `p${i}`,
    title: `Post ${String(Math.floor(random() * n)).padStart(6, '0')}`,
    author: user(),
    comments: [0, 1].map(j => ({ id: `c${i}-${j}`, body: `Comment ${j} on ${i}`, author: user() })),
  }));
}

/** Scalar columns for the lens cases: two lens-dependent fields per post, per lens. */
export function makeColumns(n, lens) {
  const columns = {};
  for (let i = 0; i < n; i++)
    columns[`p${i}`] = { score: (i * 7 + lens.length * 13) % 101, rank: (i + lens.charCodeAt(lens.length - 1)) % 17 };
  return columns;
}

/** What every library's read is compared to: plain objects, keys sorted. */
export function plain(value) {
  return JSON.parse(
    JSON.stringify(value, (key, item) =>
      item && typeof item === 'object' && !Array.isArray(item)
        ? Object.fromEntries(
            Object.keys(item)
              .sort()
              .filter(k => k !== '__typename')
              .map(k => [k, item[k]]),
          )
        : item,
    ),
  );
}
