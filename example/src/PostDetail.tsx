/**
 * The detail view of one post, opened from the post list (its address is `#/react/posts/3`): read
 * with useSuspense, refreshed on demand, edited and deleted optimistically.
 */
import { Suspense, useState, useSyncExternalStore, type FormEvent } from 'react';
import { useController, useMutation, useRowStatus, useSuspense } from 'lenscache/react';
import { Post, PostResource, serverMessage, type Group } from './api';

export interface PostParams {
  group: Group;
  id: string;
}

/** The address of a post's detail view. */
export const postHref = ({ group, id }: PostParams) => `#/${group}/posts/${encodeURIComponent(id)}`;

const subscribeToHash = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};

/** The post the address names, if any. */
export function useOpenPost(): PostParams | null {
  const hash = useSyncExternalStore(subscribeToHash, () => window.location.hash);
  const match = /^#\/(react|vue)\/posts\/([^/]+)$/.exec(hash);
  return match ? { group: match[1] as Group, id: decodeURIComponent(match[2]!) } : null;
}

/** A post's detail view; keyed by the post, so opening another starts afresh. */
export function PostDetail({ group, id }: PostParams) {
  const controller = useController();
  // The delete in progress, or done: the post's title, to say what was deleted.
  const [deletion, setDeletion] = useState<{ title: string; done: boolean } | null>(null);
  const [deleteError, setDeleteError] = useState('');
  const [refreshing, setRefreshing] = useState(false);
  const [refreshError, setRefreshError] = useState('');

  const refresh = () => {
    setRefreshing(true);
    setRefreshError('');
    // A refetch of what the view reads; the post stays shown meanwhile.
    controller
      .fetch(PostResource.get, { group, id })
      .catch(error => setRefreshError(serverMessage(error as Error)))
      .finally(() => setRefreshing(false));
  };

  const remove = (title: string) => {
    setDeleteError('');
    // The guess removes the post from every list at once, and this view stops reading it in the
    // same render: a mounted useSuspense of a deleted post would fetch it again once the delete is
    // confirmed, and get a 404.
    setDeletion({ title, done: false });
    controller.fetch(PostResource.delete, { group, id }).then(
      () => setDeletion({ title, done: true }),
      error => {
        // Refused: the guess is taken back, the post shows again, with the server's message.
        setDeletion(null);
        setDeleteError(serverMessage(error as Error));
      },
    );
  };

  return (
    <div data-testid="post-detail">
      <div className="controls">
        <button onClick={refresh} disabled={refreshing || deletion?.done} data-testid="refresh">
          {refreshing ? 'Refreshing…' : 'Refresh'}
        </button>
        <a href="#" data-testid="close">
          Close
        </a>
        {refreshError && (
          <span className="error" role="alert">
            {refreshError}
          </span>
        )}
      </div>
      {deletion ? (
        <p data-testid="deleted">
          “{deletion.title}” {deletion.done ? 'was deleted.' : <span className="muted">deleting…</span>}
        </p>
      ) : (
        <Suspense fallback={<p className="loading">Loading the post…</p>}>
          <PostView group={group} id={id} onDelete={remove} />
        </Suspense>
      )}
      {deleteError && (
        <p className="error" role="alert" data-testid="delete-error">
          {deleteError}
        </p>
      )}
    </div>
  );
}

function PostView({ group, id, onDelete }: PostParams & { onDelete: (title: string) => void }) {
  const post = useSuspense(PostResource.get, { group, id });
  const [rename] = useMutation(PostResource.partialUpdate);
  // The post's own status, not this form's: a refused save stays on the post, even after the
  // view is closed and opened again, until the post saves.
  const status = useRowStatus(Post, id);
  // The title being typed; null while not editing.
  const [draft, setDraft] = useState<string | null>(null);

  const save = (event: FormEvent) => {
    event.preventDefault();
    // One PATCH. The new title shows at once, here and in every list; a refusal takes it back.
    rename({ group, id }, { title: draft ?? '' }).catch(() => undefined);
    setDraft(null);
  };

  return (
    <article>
      <h3 className="post-title">
        <span data-testid="detail-title">{post.title}</span>
        {status.saving && (
          <span className="muted" data-testid="detail-saving">
            {' '}
            saving…
          </span>
        )}
      </h3>
      <p className="muted">
        {post.group} · by {post.author.name} · {new Date(post.createdAt).toLocaleDateString('en-US')}
      </p>
      {draft === null ? (
        <div className="controls">
          <button onClick={() => setDraft(post.title)} data-testid="edit">
            Edit
          </button>
          <button onClick={() => onDelete(post.title)} data-testid="delete">
            Delete
          </button>
        </div>
      ) : (
        <form onSubmit={save} className="controls">
          <input value={draft} onChange={event => setDraft(event.target.value)} data-testid="edit-title" autoFocus />
          <button data-testid="save">Save</button>
          <button type="button" onClick={() => setDraft(null)}>
            Cancel
          </button>
        </form>
      )}
      {status.error !== undefined && (
        <p className="error" role="alert" data-testid="edit-error">
          {serverMessage(status.error as Error)}
        </p>
      )}
    </article>
  );
}
