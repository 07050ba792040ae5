// What a Redux user writes by hand: createEntityAdapter tables, a reducer that splits the
// response into them (under Immer), and createSelector to rebuild the nested list.
import { configureStore, createEntityAdapter, createSelector, createSlice } from '@reduxjs/toolkit';

export const name = 'RTK entity adapter';

const users = createEntityAdapter();
const comments = createEntityAdapter();
const posts = createEntityAdapter();

const slice = createSlice({
  name: 'data',
  initialState: {
    users: users.getInitialState(),
    comments: comments.getInitialState(),
    posts: posts.getInitialState(),
    list: [],
  },
  reducers: {
    received(state, { payload }) {
      const userRows = [];
      const commentRows = [];
      const postRows = [];
      for (const post of payload) {
        userRows.push({ id: post.author.id, name: post.author.name });
        for (const comment of post.comments) {
          userRows.push({ id: comment.author.id, name: comment.author.name });
          commentRows.push({ id: comment.id, body: comment.body, author: comment.author.id });
        }
        postRows.push({
          id: post.id,
          title: post.title,
          author: post.author.id,
          comments: post.comments.map(c => c.id),
        });
      }
      users.upsertMany(state.users, userRows);
      comments.upsertMany(state.comments, commentRows);
      posts.upsertMany(state.posts, postRows);
      state.list = postRows.map(post => post.id);
    },
    postUpdated(state, { payload }) {
      posts.updateOne(state.posts, { id: payload.id, changes: { title: payload.title } });
    },
    userUpdated(state, { payload }) {
      users.updateOne(state.users, { id: payload.id, changes: { name: payload.name } });
    },
  },
});

function selectors() {
  const selectList = createSelector(
    [
      state => state.data.list,
      state => state.data.posts.entities,
      state => state.data.users.entities,
      state => state.data.comments.entities,
    ],
    (list, postRows, userRows, commentRows) =>
      list.map(id => {
        const post = postRows[id];
        return {
          id: post.id,
          title: post.title,
          author: userRows[post.author],
          comments: post.comments.map(cid => {
            const comment = commentRows[cid];
            return { id: comment.id, body: comment.body, author: userRows[comment.author] };
          }),
        };
      }),
  );
  return {
    selectList,
    sorted: createSelector([selectList], list => [...list].sort((a, b) => a.title.localeCompare(b.title))),
    count: createSelector([selectList], list => list.length),
    groupBy: createSelector([selectList], list => {
      const groups = {};
      for (const post of list) (groups[post.author.id] ??= []).push(post);
      return groups;
    }),
  };
}

export function create() {
  let store;
  let select = selectors();
  const reset = () => {
    store = configureStore({ reducer: { data: slice.reducer } });
    select = selectors();
  };
  reset();
  return {
    write(response) {
      reset();
      store.dispatch(slice.actions.received(response));
    },
    rewrite(response) {
      store.dispatch(slice.actions.received(response));
    },
    read: () => select.selectList(store.getState()),
    resetMemo() {
      select = selectors();
    },
    updatePost(id, title) {
      store.dispatch(slice.actions.postUpdated({ id, title }));
    },
    updateUser(id, name) {
      store.dispatch(slice.actions.userUpdated({ id, name }));
    },
    sorted: () => select.sorted(store.getState()),
    count: () => select.count(store.getState()),
    groupBy: () => select.groupBy(store.getState()),
  };
}
