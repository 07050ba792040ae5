import { Entity } from '../../src/index';
import { makeStore } from '../fixtures/store';

class Node extends Entity {
  id = '';
  next?: Node;
  static override key = 'Node';
  static override schema: Record<string, unknown> = {};
}
Node.schema = { next: Node };

describe('read depth', () => {
  test('refs deeper than maxEntityDepth stay unresolved, with one warning, and reads do not throw', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    const { cache, store } = makeStore({ maxEntityDepth: 3 });
    // Each write is shallow; together they build a chain deeper than the limit.
    for (let i = 0; i < 6; i++) store.dispatch(cache.set(Node, { id: `n${i}`, next: `n${i + 1}` }));

    const head = cache.selectQuery(store.getState(), Node, 'n0');
    expect(head?.next?.next?.id).toBe('n2');
    expect(head?.next?.next?.next).toBe('n3'); // the stored ref, unresolved
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/maxEntityDepth \(3\)/);

    // A node cut short at depth 3 is not cached: read at the top, it resolves fully.
    const n2 = cache.selectQuery(store.getState(), Node, 'n2');
    expect(n2?.next?.id).toBe('n3');
    expect(n2).not.toBe(head?.next?.next);
    warn.mockRestore();
  });
});
