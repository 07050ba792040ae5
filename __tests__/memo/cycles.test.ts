/**
 * Memoized reads of cyclic graphs: a value that closes a cycle holds the object of a row still
 * being built, so it depends on everything that object ends up reading. When that changes (a row
 * it read, or the lens), the closing value is rebuilt too, never served from the memo with the
 * old object inside.
 */
import { Collection, Entity, Scalar, Values } from '../../src/index';
import { makeStore } from '../fixtures/store';

class Tag extends Entity {
  id = '';
  label = '';
  static override key = 'CTag';
}
/** Reads no lens and no row but its own and the node it links back to. */
class Link extends Entity {
  id = '';
  back: Node | null = null;
  static override key = 'CLink';
}
class Node extends Entity {
  id = '';
  weight = 0;
  link = Link.fromJS();
  tag = Tag.fromJS();
  static override key = 'CNode';
}
const weight = new Scalar({
  lens: args => (args[0] as { lens?: string } | undefined)?.lens,
  key: 'cweight',
  entity: Node,
});
Node.schema = { link: Link, tag: Tag, weight };
Link.schema = { back: Node };
const nodes = new Collection([Node], { argsKey: () => ({}) });

function setup() {
  const { cache, store } = makeStore();
  store.dispatch(
    cache.set(nodes, { lens: 'a' }, [
      { id: 'n1', weight: 1, tag: { id: 't1', label: 'x' }, link: { id: 'l1', back: { id: 'n1' } } },
    ]),
  );
  const read = (lens: string) => cache.selectQuery(store.getState(), Node, { id: 'n1', lens }) as Node;
  return { cache, store, read };
}

test('a row the cycle start read changes: the value closing the cycle holds the new object', () => {
  const { cache, store, read } = setup();
  const before = read('a');
  expect(before.link.back).toBe(before);
  store.dispatch(cache.set(Tag, { id: 't1', label: 'y' }));
  const after = read('a');
  expect(after.tag.label).toBe('y');
  expect(after.link.back).toBe(after);
});

test('another lens: the value closing the cycle holds that lens view, and A → B → A keeps the objects', () => {
  const { cache, store, read } = setup();
  store.dispatch(
    cache.setResponse({ key: () => 'cells', schema: new Values(weight) }, { lens: 'b' }, { n1: { weight: 10 } }),
  );
  const a = read('a');
  const b = read('b');
  expect(b.weight).toBe(10);
  expect(b.link.back).toBe(b);
  expect(b.link).not.toBe(a.link);
  const again = read('a');
  expect(again).toBe(a);
  expect(again.link).toBe(a.link);
  expect(again.link.back).toBe(a);
});

test('the closing value read on its own follows a change to what the cycle start read', () => {
  const { cache, store, read } = setup();
  read('a');
  const readLink = () => cache.selectQuery(store.getState(), Link, { id: 'l1', lens: 'a' }) as Link;
  expect(readLink().back!.tag.label).toBe('x');
  store.dispatch(cache.set(Tag, { id: 't1', label: 'y' }));
  const link = readLink();
  expect(link.back!.tag.label).toBe('y');
  expect(link.back!.link).toBe(link);
});

test('two lenses, one read by the cycle start after the link: a view of the link is not reused under the other', () => {
  class Ring extends Entity {
    id = '';
    left = 0;
    link = Link.fromJS();
    right = 0;
    static override key = 'CRing';
  }
  class Hop extends Entity {
    id = '';
    back: Ring | null = null;
    static override key = 'CHop';
  }
  const left = new Scalar({ lens: args => (args[0] as { l?: string }).l, key: 'cleft', entity: Ring });
  const right = new Scalar({ lens: args => (args[0] as { r?: string }).r, key: 'cright', entity: Ring });
  Ring.schema = { left, link: Hop, right };
  Hop.schema = { back: Ring };
  const { cache, store } = makeStore();
  store.dispatch(
    cache.set(Ring, { l: 'x', r: 'p' }, { id: 'g', left: 1, right: 10, link: { id: 'h', back: { id: 'g' } } }),
  );
  store.dispatch(cache.setResponse({ key: () => 'left', schema: new Values(left) }, { l: 'y' }, { g: { left: 2 } }));
  store.dispatch(
    cache.setResponse({ key: () => 'right', schema: new Values(right) }, { r: 'q' }, { g: { right: 20 } }),
  );
  const read = (l: string, r: string) => cache.selectQuery(store.getState(), Ring, { id: 'g', l, r }) as Ring;
  read('x', 'p');
  read('y', 'p');
  const ring = read('y', 'q');
  expect([ring.left, ring.right]).toEqual([2, 20]);
  expect(ring.link.back).toBe(ring);
});
