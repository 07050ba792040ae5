/**
 * @jest-environment ./__tests__/fixtures/jsdomWithFetch.js
 */
/**
 * <AsyncBoundary> and <ErrorBoundary> (docs/boundaries.md) against a real local server: the
 * fallback while the first request runs, the error view when it fails with nothing to show, and a
 * retry that fetches it again (not the cached error) and shows the data.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { Entity, Invalidate, RestEndpoint } from '../../src/index';
import { AsyncBoundary, ErrorBoundary, useSuspense, type ErrorViewProps } from '../../src/react/index';
import { quietErrors, renderWithCache } from '../fixtures/render';
import { GoneNote } from '../fixtures/schemas';
import { startServer, type TestServer } from '../fixtures/server';

class Note extends Entity {
  id = '';
  text = '';
  static override key = 'BoundaryNote';
}

let server: TestServer;
let failing = true;
let requests = 0;
let getNote: RestEndpoint<{ path: '/notes/:id'; urlPrefix: string; schema: typeof Note }>;

beforeAll(async () => {
  server = await startServer();
  server.on('GET /notes/1', () => {
    requests++;
    return failing
      ? { status: 500, json: { message: 'the notes server is down' } }
      : { json: { id: '1', text: 'hello' } };
  });
  getNote = new RestEndpoint({ urlPrefix: server.origin, path: '/notes/:id', schema: Note });
});
afterAll(() => server.close());
beforeEach(() => {
  failing = true;
  requests = 0;
});

function NoteView() {
  const note = useSuspense(getNote, { id: '1' });
  return <p>{note.text}</p>;
}

test('AsyncBoundary: fallback, then the error view; Retry fetches again and shows the data', async () => {
  const quiet = quietErrors();
  const caught: Error[] = [];
  try {
    renderWithCache(
      <AsyncBoundary fallback={<p>loading</p>} onError={error => caught.push(error)}>
        <NoteView />
      </AsyncBoundary>,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    await screen.findByRole('alert');
    expect(screen.getByRole('alert').textContent).toContain('500');
    expect(caught).toHaveLength(1);
    expect(requests).toBe(1);
    failing = false;
    // Right away: the stored error has not expired, yet the retry fetches again.
    fireEvent.click(screen.getByText('Retry'));
    await screen.findByText('hello');
    expect(requests).toBe(2);
  } finally {
    quiet.mockRestore();
  }
});

test('ErrorBoundary takes a custom error view, whose resetErrorBoundary retries', async () => {
  const quiet = quietErrors();
  try {
    function ErrorView({ error, resetErrorBoundary }: ErrorViewProps) {
      return (
        <button onClick={resetErrorBoundary} data-testid="retry">
          failed: {error.message.split('\n')[0]}
        </button>
      );
    }
    const { cache, store } = renderWithCache(
      <ErrorBoundary fallbackComponent={ErrorView}>
        <AsyncBoundary fallback={<p>loading</p>} errorComponent={ErrorView}>
          <NoteView />
        </AsyncBoundary>
      </ErrorBoundary>,
    );
    await screen.findByTestId('retry');
    failing = false;
    fireEvent.click(screen.getByTestId('retry'));
    await screen.findByText('hello');
    // Only what failed with nothing to show was fetched again.
    expect(cache.selectResponse(store.getState(), getNote, { id: '1' }).error).toBeUndefined();
  } finally {
    quiet.mockRestore();
  }
});

test('Retry fetches again a response whose stored result reads as deleted, and shows the answer', async () => {
  const quiet = quietErrors();
  try {
    failing = false;
    const { cache, store } = renderWithCache(
      <AsyncBoundary fallback={<p>loading</p>}>
        <NoteView />
      </AsyncBoundary>,
    );
    await screen.findByText('hello');
    // The note is deleted elsewhere; the reader's refetch fails: the stored result still names
    // the note, which reads as deleted, so the error is thrown with nothing to show.
    failing = true;
    await act(async () => void store.dispatch(cache.set(new Invalidate(Note), '1')));
    await screen.findByRole('alert');
    expect(requests).toBe(2);
    failing = false;
    fireEvent.click(screen.getByText('Retry'));
    await screen.findByText('hello');
    expect(requests).toBe(3);
  } finally {
    quiet.mockRestore();
  }
});

test('Retry fetches again a response an answer left deleted (STILL_INVALID), and shows the next answer', async () => {
  let gone = true;
  let sent = 0;
  server.on('GET /fading/:id', () => {
    sent++;
    return { json: gone ? { id: 'f1', gone: true } : { id: 'f1', text: 'back' } };
  });
  const getFading = new RestEndpoint({ urlPrefix: server.origin, path: '/fading/:id', schema: GoneNote });
  function FadingView() {
    return <p>{useSuspense(getFading, { id: 'f1' }).text}</p>;
  }
  const quiet = quietErrors();
  try {
    renderWithCache(
      <AsyncBoundary fallback={<p>loading</p>}>
        <FadingView />
      </AsyncBoundary>,
    );
    await screen.findByRole('alert');
    expect(sent).toBe(1);
    gone = false;
    fireEvent.click(screen.getByText('Retry'));
    await screen.findByText('back');
    expect(sent).toBe(2);
  } finally {
    quiet.mockRestore();
  }
});
