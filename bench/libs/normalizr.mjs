// normalizr 3.6 with the hand-written immutable merges a Redux user adds around it, and
// reselect over the merged tables for reads.
import { createSelector } from 'reselect';
import normalizrPackage from 'normalizr';

const { normalize, denormalize, schema } = normalizrPackage;

export const name = 'normalizr 3.6';

const user = new schema.Entity('users');
const comment = new schema.Entity('comments', { author: user });
const post = new schema.Entity('posts', { author: user, comments: [comment] });
const listSchema = [post];

function merge(state, entities) {
  const next = { ...state };
  for (const table of Object.keys(entities)) {
    const rows = { ...state[table] };
    const incoming = entities[table];
    for (const id of Object.keys(incoming)) rows[id] = rows[id] ? { ...rows[id], ...incoming[id] } : incoming[id];
    next[table] = rows;
  }
  return next;
}

function selectors() {
  const read = createSelector([state => state.result, state => state.entities], (result, entities) =>
    denormalize(result, listSchema, entities),
  );
  return {
    read,
    sorted: createSelector([read], list => [...list].sort((a, b) => a.title.localeCompare(b.title))),
    count: createSelector([read], list => list.length),
    groupBy: createSelector([read], list => {
      const groups = {};
      for (const item of list) (groups[item.author.id] ??= []).push(item);
      return groups;
    }),
  };
}

export function create() {
  let state = { entities: {}, result: [] };
  let select = selectors();
  const write = response => {
    const normalized = normalize(response, listSchema);
    state = { entities: merge(state.entities, normalized.entities), result: normalized.result };
  };
  return {
    write(response) {
      state = { entities: {}, result: [] };
      select = selectors();
      write(response);
    },
    rewrite: write,
    read: () => select.read(state),
    denormalize: () => denormalize(state.result, listSchema, state.entities),
    resetMemo() {
      select = selectors();
    },
    updatePost(id, title) {
      state = { ...state, entities: merge(state.entities, { posts: { [id]: { title } } }) };
    },
    updateUser(id, name) {
      state = { ...state, entities: merge(state.entities, { users: { [id]: { name } } }) };
    },
    sorted: () => select.sorted(state),
    count: () => select.count(state),
    groupBy: () => select.groupBy(state),
  };
}
