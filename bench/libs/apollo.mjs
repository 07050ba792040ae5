// Apollo Client's InMemoryCache: writeQuery / readQuery of the same list (typename added to the
// response before timing, as a GraphQL server would send it).
import { gql, InMemoryCache } from '@apollo/client';

export const name = 'Apollo InMemoryCache';

const query = gql`
  query Posts {
    posts {
      id
      title
      author {
        id
        name
      }
      comments {
        id
        body
        author {
          id
          name
        }
      }
    }
  }
`;

export function typed(response) {
  return response.map(post => ({
    __typename: 'Post',
    ...post,
    author: { __typename: 'User', ...post.author },
    comments: post.comments.map(comment => ({
      __typename: 'Comment',
      ...comment,
      author: { __typename: 'User', ...comment.author },
    })),
  }));
}

export function create() {
  let cache = new InMemoryCache();
  const read = () => cache.readQuery({ query }).posts;
  return {
    prepare: typed,
    write(response) {
      cache = new InMemoryCache();
      cache.writeQuery({ query, data: { posts: response } });
    },
    rewrite(response) {
      cache.writeQuery({ query, data: { posts: response } });
    },
    read,
    resetMemo() {
      // A fresh cache restored from the same data: its result cache starts empty.
      const snapshot = cache.extract();
      cache = new InMemoryCache();
      cache.restore(snapshot);
    },
    updatePost(id, title) {
      cache.modify({ id: cache.identify({ __typename: 'Post', id }), fields: { title: () => title } });
    },
    updateUser(id, name) {
      cache.modify({ id: cache.identify({ __typename: 'User', id }), fields: { name: () => name } });
    },
  };
}
