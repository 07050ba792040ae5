import { Entity, RestEndpoint } from 'lenscache';
import { useMutation, useQuery, useRowStatus } from 'lenscache/react';

export class Todo extends Entity {
  id = '';
  title = '';
  static override key = 'Todo';
}

const urlPrefix = 'https://api.example.com';

/** The guess writes the row: the row reads `saving` until the answer, and the failure, if any. */
export const renameTodo = new RestEndpoint({
  urlPrefix,
  path: '/todos/:id',
  method: 'PATCH',
  body: {} as { title: string },
  schema: Todo,
  getOptimisticResponse: (snap, params: { id: string }, body: { title: string }) => {
    const todo = snap.get(Todo, params);
    return todo && { ...todo, ...body };
  },
});

export function TodoRow({ id }: { id: string }) {
  const todo = useQuery(Todo, { id });
  const [rename] = useMutation(renameTodo);
  // Any component can show it: the error outlives the component that saved, until the row saves again.
  const { saving, error } = useRowStatus(Todo, id);
  if (!todo) return null;
  return (
    <li>
      <button onClick={() => rename({ id }, { title: `${todo.title}!` }).catch(() => undefined)}>{todo.title}</button>
      {saving && <small> saving…</small>}
      {error !== undefined && <small role="alert"> {error instanceof Error ? error.message : String(error)}</small>}
    </li>
  );
}
