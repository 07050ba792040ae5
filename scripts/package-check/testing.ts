// Type-checked by scripts/check-package.sh in the scratch project, under each module resolution:
// the lenscache/test entry resolves (with @testing-library/react installed), and its helpers infer
// the endpoint's args and the hook's result.
import { Entity, RestEndpoint } from 'lenscache';
import {
  mockFetch,
  mockInitialState,
  renderCacheHook,
  renderWithCache,
  type Fixture,
  type Interceptor,
} from 'lenscache/test';

class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}
const getPost = new RestEndpoint({ path: '/posts/:id', schema: Post });

const fixture: Fixture<typeof getPost> = { endpoint: getPost, args: [{ id: '1' }], response: { id: '1', title: 'Hi' } };
const interceptor: Interceptor<typeof getPost> = { endpoint: getPost, response: ({ id }) => ({ id, title: 'Hi' }) };
export const fetchOption: (input: string, init: RequestInit) => Promise<Response> = mockFetch([fixture, interceptor]);
export const state: { cache: unknown } = mockInitialState([fixture]);
export const rendered: { controller: unknown } = renderWithCache(null, { fixtures: [fixture] });
const hook = renderCacheHook(() => 1, { initialFixtures: [fixture] });
export const current: number | null = hook.result.current;
