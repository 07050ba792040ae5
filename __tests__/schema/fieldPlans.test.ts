/**
 * Fields holding an Entity class, or a list of one, are read and written without the walkers'
 * dispatch (src/schema/entityInfo.ts, field plans). What the dispatch would reach must still be
 * reached: a class's own `normalize`/`denormalize`, and a `static schema` replaced after use.
 */
import { Collection, Entity } from '../../src/index';
import type { DenormalizeDelegate, NormalizeDelegate } from '../../src/schema/contract';
import { makeStore } from '../fixtures/store';
import { endpoint } from '../fixtures/writes';

class Tag extends Entity {
  id = '';
  label = '';
  static override key = 'PlanTag';
}

/** Written and read by overrides: stored upper-cased, read back with a mark. */
class Shout extends Entity {
  id = '';
  text = '';
  static override key = 'PlanShout';
  static override normalize(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate) {
    const item = input as { id: string; text: string };
    return super.normalize({ ...item, text: item.text.toUpperCase() }, parent, key, delegate);
  }
  static override denormalize(input: unknown, delegate: DenormalizeDelegate) {
    const value = super.denormalize(input, delegate) as Shout | undefined;
    return value === undefined ? value : { shouted: value.text };
  }
}

class Note extends Entity {
  id = '';
  tag = Tag.fromJS();
  shout: unknown = undefined;
  shouts: unknown[] = [];
  static override key = 'PlanNote';
  static override schema = { tag: Tag, shout: Shout, shouts: [Shout] };
}

const note = {
  id: 'n1',
  tag: { id: 't1', label: 'red' },
  shout: { id: 's1', text: 'hi' },
  shouts: [
    { id: 's2', text: 'a' },
    { id: 's3', text: 'b' },
  ],
};

test('a field or a list field of a class with its own normalize and denormalize goes through them', () => {
  const { cache, store } = makeStore();
  store.dispatch(cache.set(Note, {}, note));
  const { entities } = store.getState().cache;
  expect(entities.PlanShout).toEqual({
    s1: { id: 's1', text: 'HI' },
    s2: { id: 's2', text: 'A' },
    s3: { id: 's3', text: 'B' },
  });
  const read = cache.selectQuery(store.getState(), Note, { id: 'n1' })!;
  expect(read.tag).toBeInstanceOf(Tag);
  expect(read.shout).toEqual({ shouted: 'HI' });
  expect(read.shouts).toEqual([{ shouted: 'A' }, { shouted: 'B' }]);
  // As members of a list at the top, too.
  const shouts = new Collection([Shout], { argsKey: () => ({}) });
  store.dispatch(cache.set(shouts, {}, [{ id: 's4', text: 'c' }]));
  expect(cache.selectQuery(store.getState(), shouts, {})).toEqual([{ shouted: 'C' }]);
  // And as members of a plain array schema.
  const list = endpoint('shouts', [Shout]);
  store.dispatch(cache.setResponse(list, [], [{ id: 's5', text: 'd' }]));
  expect(store.getState().cache.entities.PlanShout!.s5).toEqual({ id: 's5', text: 'D' });
  expect(cache.selectResponse(store.getState(), list, []).data).toEqual([{ shouted: 'D' }]);
});

test('a static schema replaced after the class was read and written is the one used next', () => {
  class Box extends Entity {
    id = '';
    static override key = 'PlanBox';
    static override schema: Record<string, unknown> = { tag: Tag };
  }
  const { cache, store } = makeStore();
  store.dispatch(cache.set(Box, {}, { id: 'b1', tag: { id: 't1', label: 'red' } }));
  expect(cache.selectQuery(store.getState(), Box, { id: 'b1' })).toMatchObject({ tag: { label: 'red' } });
  Box.schema = { tag: Tag, tags: [Tag] };
  store.dispatch(cache.set(Box, {}, { id: 'b2', tag: 't1', tags: [{ id: 't2', label: 'blue' }] }));
  expect(store.getState().cache.entities.PlanBox!.b2).toEqual({ id: 'b2', tag: 't1', tags: ['t2'] });
  const read = cache.selectQuery(store.getState(), Box, { id: 'b2' }) as unknown as { tag: Tag; tags: Tag[] };
  expect(read.tag.label).toBe('red');
  expect(read.tags.map(tag => tag.label)).toEqual(['blue']);
});

test("a nested class's schema replaced after its parent was read is followed from the parent", () => {
  class Leaf extends Entity {
    id = '';
    static override key = 'PlanLeaf';
    static override schema: Record<string, unknown> = {};
  }
  class Branch extends Entity {
    id = '';
    leaf = Leaf.fromJS();
    static override key = 'PlanBranch';
    static override schema = { leaf: Leaf };
  }
  const { cache, store } = makeStore();
  store.dispatch(cache.set(Branch, {}, { id: 'x', leaf: { id: 'l1', tag: 'not yet a ref' } }));
  expect(cache.selectQuery(store.getState(), Branch, { id: 'x' })!.leaf).toMatchObject({ tag: 'not yet a ref' });
  Leaf.schema = { tag: Tag };
  store.dispatch(cache.set(Branch, {}, { id: 'y', leaf: { id: 'l2', tag: { id: 't9', label: 'green' } } }));
  expect(store.getState().cache.entities.PlanLeaf!.l2).toEqual({ id: 'l2', tag: 't9' });
  const leaf = cache.selectQuery(store.getState(), Branch, { id: 'y' })!.leaf as unknown as { tag: Tag };
  expect(leaf.tag).toBeInstanceOf(Tag);
  expect(leaf.tag.label).toBe('green');
});
