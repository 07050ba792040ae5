import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity, Union } from 'lenscache';

export class User extends Entity {
  id = '';
  type = 'users';
  name = '';
  static override key = 'User';
}
export class Group extends Entity {
  id = '';
  type = 'groups';
  title = '';
  static override key = 'Group';
}

// The `type` field of each item names its member.
export const Member = new Union({ users: User, groups: Group }, 'type');
export const getMembers = { key: () => 'GET /members', schema: [Member] };

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

export function run() {
  store.dispatch(
    cache.setResponse(getMembers, [
      { id: '1', type: 'users', name: 'Ann' },
      { id: '1', type: 'groups', title: 'Admins' },
    ]),
  );

  const state = store.getState();
  const members = cache.selectResponse(state, getMembers).data; // (User | Group)[] | undefined
  return {
    labels: members?.map(member => (member instanceof User ? member.name : member.title)), // ['Ann', 'Admins']
    stored: state.cache.endpoints[getMembers.key()], // [{ id: '1', schema: 'users' }, { id: '1', schema: 'groups' }]
    // Without a response: the attribute of args[0] picks the member to read.
    group: cache.selectQuery(state, Member, { id: '1', type: 'groups' }), // Group { id: '1', type: 'groups', title: 'Admins' }
  };
}
