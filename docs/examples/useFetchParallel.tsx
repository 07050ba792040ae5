import { Entity, RestEndpoint } from 'lenscache';
import { useFetch } from 'lenscache/react';
import { use } from 'react';

export class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}
export class User extends Entity {
  id = '';
  name = '';
  static override key = 'User';
}
export const getPosts = new RestEndpoint({ path: '/:group/posts', schema: [Post] });
export const getUsers = new RestEndpoint({ path: '/users', schema: [User] });

export function Overview({ group }: { group: string }) {
  // Both requests start here, in this render...
  const postsPromise = useFetch(getPosts, { group });
  const usersPromise = useFetch(getUsers);
  // ...then use() suspends (inside a <Suspense>) until each has its answer.
  const posts = use(postsPromise);
  const users = use(usersPromise);
  return (
    <p>
      {posts.length} posts by {users.length} people
    </p>
  );
}
