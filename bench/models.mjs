// The bench's data as classes, for the libraries with data-client's schema API (lenscache, and
// data-client built from source): the same Entity classes, the same three queries (the same
// functions over All(Post)) and the same lens-dependent fields, made from each library's own
// constructors.

/** `lib`: the library's `Entity`, `All`, `Query` and `Scalar`. */
export function models({ Entity, All, Query, Scalar }) {
  class User extends Entity {
    id = '';
    name = '';
    static key = 'User';
  }
  class Comment extends Entity {
    id = '';
    body = '';
    author = User.fromJS();
    static key = 'Comment';
    static schema = { author: User };
  }
  class Post extends Entity {
    id = '';
    title = '';
    author = User.fromJS();
    comments = [];
    static key = 'Post';
    static schema = { author: User, comments: [Comment] };
  }
  const sorted = new Query(new All(Post), list => [...list].sort((a, b) => a.title.localeCompare(b.title)));
  const count = new Query(new All(Post), list => list.length);
  const groupBy = new Query(new All(Post), list => {
    const groups = {};
    for (const post of list) (groups[post.author.id] ??= []).push(post);
    return groups;
  });

  // The lens cases: the same posts, with two Scalar fields per post written per lens.
  class LensPost extends Post {
    score = 0;
    rank = 0;
    static key = 'Post';
  }
  const lensScalar = new Scalar({ lens: args => args[0]?.lens, key: 'lens', entity: LensPost });
  LensPost.schema = { ...Post.schema, score: lensScalar, rank: lensScalar };

  return { User, Comment, Post, sorted, count, groupBy, LensPost, lensScalar };
}
