// A test-only switch of the example server (on with `startExample({ testRoutes: true })`, which
// `EXAMPLE_TEST_ROUTES=1 npm start` sets; off for everyone else). It makes one read and one
// mutation of the same post overlap the way a busy server can:
//
//   POST /api/_test/overlap   arms it: the next PATCH or DELETE of a post waits (up to 10 s) for a
//                             GET of that post to arrive.
//   the GET                   is answered from the post as it is when the GET arrives, so before
//                             the mutation is applied, but its answer is held back;
//   the mutation              is then applied and answered as usual;
//   POST /api/_test/release   sends the held answers (so they arrive after the mutation's) and
//                             says how many there were: `{ released: n }`.
//
// Every GET of the post that arrives before the release is held the same way.

const WAIT_FOR_READ_MS = 10_000;

export function createOverlap() {
  let armed = false;
  /** The post paths whose mutation waits for a read: path → let the mutation go. */
  const waiting = new Map();
  /** The post paths whose reads are held until the release. */
  const holding = new Set();
  /** Sends one held answer. */
  let held = [];

  return {
    arm() {
      armed = true;
    },
    /** Sends every held answer; resolves to how many there were. */
    release() {
      const answers = held;
      held = [];
      holding.clear();
      for (const send of answers) send();
      return answers.length;
    },
    /** For a mutation of a post: when armed, waits until a read of the same post arrives. */
    async beforeMutation(path) {
      if (!armed) return;
      armed = false;
      holding.add(path);
      await new Promise(resolve => {
        const timer = setTimeout(resolve, WAIT_FOR_READ_MS);
        waiting.set(path, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      waiting.delete(path);
    },
    /** Whether a read of this post arriving now is to be held. */
    holds(path) {
      return holding.has(path);
    },
    /**
     * Holds a read of the post: `send` writes its answer, computed by the caller at the read's
     * arrival. The first held read lets the waiting mutation go.
     */
    hold(path, send) {
      held.push(send);
      waiting.get(path)?.();
    },
  };
}
