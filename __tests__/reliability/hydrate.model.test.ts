/**
 * A seeded model test of `hydrate` (docs/server-rendering.md, "How hydrate merges"): random
 * schedules of answers the store writes itself (`resolve` with a start stamp) and server state
 * merged in (`hydrate` of a part holding some products, each with its own stamp), in random order.
 * The reference is a plain map: each product's value is the one written with the latest start,
 * whichever way it came. After every step, the store shows exactly that, for the rows and for
 * each product's stored response.
 */
import { createCache, Entity, hydrate, RestEndpoint } from '../../src/index';
import { makeStore } from '../fixtures/store';
import { random } from '../fixtures/random';

const SCHEDULES = Number(process.env.MODEL_SCHEDULES ?? 300);
const STEPS = 14;
const IDS = ['1', '2', '3'];

class Product extends Entity {
  id = '';
  name = '';
  static override key = 'Product';
}
const getProduct = new RestEndpoint({ path: '/products/:id', schema: Product });

test(`hydrate and the store's own answers, in any order: the latest start wins (${SCHEDULES} schedules)`, () => {
  const cache = createCache();
  for (let schedule = 1; schedule <= SCHEDULES; schedule++) {
    const next = random(schedule);
    const { store } = makeStore({}, { cache });
    // Distinct start stamps, handed out in a random order, all in the past.
    const base = Date.now() - 1_000_000;
    const stamps = Array.from({ length: STEPS * IDS.length }, (_, i) => base + i * 10).sort(() => next() - 0.5);
    const latest = new Map<string, { stamp: number; name: string }>();
    const take = (id: string, stamp: number, name: string) => {
      if ((latest.get(id)?.stamp ?? -Infinity) < stamp) latest.set(id, { stamp, name });
    };
    for (let step = 0; step < STEPS; step++) {
      if (next() < 0.5) {
        // An answer of the store's own request for one product.
        const id = IDS[Math.floor(next() * IDS.length)]!;
        const fetchedAt = stamps.pop()!;
        const name = `own ${schedule}.${step}`;
        store.dispatch(cache.resolve(getProduct, { args: [{ id }], response: { id, name }, fetchedAt }));
        take(id, fetchedAt, name);
      } else {
        // A part of a server's state: some products, each with its response, at its own stamp.
        const part = { entities: { Product: {} }, entitiesMeta: { Product: {} }, endpoints: {}, meta: {} } as Record<
          string,
          Record<string, unknown>
        >;
        for (const id of IDS) {
          if (next() < 0.5) continue;
          const fetchedAt = stamps.pop()!;
          const meta = { fetchedAt, date: fetchedAt, expiresAt: fetchedAt + 10_000_000 };
          const name = `server ${schedule}.${step}`;
          (part.entities!.Product as Record<string, unknown>)[id] = { id, name };
          (part.entitiesMeta!.Product as Record<string, unknown>)[id] = meta;
          part.endpoints![getProduct.key({ id })] = id;
          part.meta![getProduct.key({ id })] = meta;
          take(id, fetchedAt, name);
        }
        store.dispatch(hydrate(cache, part));
      }
      for (const id of IDS) {
        const expected = latest.get(id)?.name;
        const shown = cache.selectQuery(store.getState(), Product, id)?.name;
        const response = cache.selectResponse(store.getState(), getProduct, { id }).data as Product | undefined;
        if (shown !== expected || response?.name !== expected) {
          throw new Error(
            `schedule ${schedule}, step ${step}, product ${id}: expected ${String(expected)}, the row shows ${String(shown)} and the response ${String(response?.name)}`,
          );
        }
      }
    }
  }
});
