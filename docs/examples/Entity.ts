import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity } from 'lenscache';

export class User extends Entity {
  id = '';
  name = '';
  static override key = 'User';
}
export class Comment extends Entity {
  id = 0;
  body = '';
  static override key = 'Comment';
}
export class Post extends Entity {
  id = '';
  title = '';
  author = User.fromJS();
  comments: Comment[] = [];
  createdAt = new Date(0);
  static override key = 'Post';
  // `createdAt: Date` is a deserializer: stored as the ISO string, read back as `new Date(value)`.
  static override schema = { author: User, comments: [Comment], createdAt: Date };
}

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

export function run() {
  store.dispatch(
    cache.set(Post, {
      id: '1',
      title: 'Hello',
      author: { id: 'u1', name: 'Ann' },
      comments: [
        { id: 5, body: 'First' },
        { id: 6, body: 'Second' },
      ],
      createdAt: '2024-05-01T10:00:00.000Z',
    }),
  );
  // `undefined` never erases a stored value: only the author's name changes.
  store.dispatch(cache.set(Post, { id: '1', title: undefined, author: { id: 'u1', name: 'Ann B.' } }));

  const post = cache.selectQuery(store.getState(), Post, '1');
  const { entities } = store.getState().cache;
  return {
    isPost: post instanceof Post, // true: reads are instances of the class
    title: post?.title, // 'Hello'
    author: post?.author.name, // 'Ann B.'
    comments: post?.comments.map(comment => comment.body), // ['First', 'Second']
    year: post?.createdAt.getUTCFullYear(), // 2024
    commentKeys: Object.keys(entities.Comment ?? {}), // ['5', '6']: the row key is String(pk)
    commentRow: entities.Comment?.['5'], // { id: 5, body: 'First' }: the row keeps the number
  };
}
