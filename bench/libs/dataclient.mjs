// The data-client pair that installs together from npm: @data-client/normalizr 0.10 with
// @data-client/endpoint 0.9 entities; reads through its own memo (denormalizeCached).
import { denormalize, denormalizeCached, normalize, WeakEntityMap } from '@data-client/normalizr';
import { Entity } from '@data-client/endpoint';

export const name = 'data-client 0.10 (npm)';

class User extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static key = 'User';
}
class Comment extends Entity {
  id = '';
  body = '';
  author = User.fromJS();
  pk() {
    return this.id;
  }
  static key = 'Comment';
  static schema = { author: User };
}
class Post extends Entity {
  id = '';
  title = '';
  author = User.fromJS();
  comments = [];
  pk() {
    return this.id;
  }
  static key = 'Post';
  static schema = { author: User, comments: [Comment] };
}
const listSchema = [Post];

export function create() {
  let store = { entities: {}, indexes: {}, entityMeta: {}, result: [] };
  let entityCache = {};
  let resultCache = new WeakEntityMap();
  const write = response => {
    const now = Date.now();
    const normalized = normalize(response, listSchema, [], store.entities, store.indexes, store.entityMeta, {
      date: now,
      fetchedAt: now,
      expiresAt: now + 60000,
    });
    store = { ...normalized };
  };
  const read = () => denormalizeCached(store.result, listSchema, store.entities, entityCache, resultCache, []).data;
  return {
    write(response) {
      store = { entities: {}, indexes: {}, entityMeta: {}, result: [] };
      entityCache = {};
      resultCache = new WeakEntityMap();
      write(response);
    },
    rewrite: write,
    read,
    denormalize: () => denormalize(store.result, listSchema, store.entities, []),
    resetMemo() {
      entityCache = {};
      resultCache = new WeakEntityMap();
    },
    updatePost(id, title) {
      const now = Date.now();
      const normalized = normalize({ id, title }, Post, [], store.entities, store.indexes, store.entityMeta, {
        date: now,
        fetchedAt: now,
        expiresAt: now + 60000,
      });
      store = { ...normalized, result: store.result };
    },
    updateUser(id, name) {
      const now = Date.now();
      const normalized = normalize({ id, name }, User, [], store.entities, store.indexes, store.entityMeta, {
        date: now,
        fetchedAt: now,
        expiresAt: now + 60000,
      });
      store = { ...normalized, result: store.result };
    },
  };
}
