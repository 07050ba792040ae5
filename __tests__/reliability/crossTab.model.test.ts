/**
 * A seeded model test of crossTab (docs/crossTab.md): two tabs (and, in half the schedules, a
 * third that opens midway) read and edit a few notes on a simulated server, with guesses; the
 * server applies an edit when it answers it and a read returns what it holds then; answers and
 * messages between tabs are delivered in a random order (each sender's messages in order, as a
 * BroadcastChannel delivers them). The wall clock moves forward between steps. Checked at every
 * step: a tab shows a guess only for its own edits in flight. Checked at the end, with everything
 * delivered: every tab shows, for each note anyone got an answer for, what the server holds.
 */
import { configureStore } from '@reduxjs/toolkit';
import { createLeanCache, crossTab, Entity, optimisticUpdates, type EndpointLike } from '../../src/index';
import { random } from '../fixtures/random';

const SCHEDULES = Number(process.env.MODEL_SCHEDULES ?? 300);
const STEPS = 24;
const IDS = ['1', '2', '3'];

class Note extends Entity {
  id = '';
  title = '';
  static override key = 'Note';
}

/** Messages posted and not yet delivered, across every channel of the schedule. */
interface Letter {
  from: FakeChannel;
  to: FakeChannel;
  data: string;
}
let mail: Letter[] = [];
let open: FakeChannel[] = [];

/** A BroadcastChannel in this process whose deliveries the schedule decides. */
class FakeChannel {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  constructor(private readonly name: string) {
    open.push(this);
  }
  postMessage(message: unknown) {
    // As a structured clone: a copy, in this realm (the state is plain JSON).
    const data = JSON.stringify(message);
    for (const to of open) if (to !== this && to.name === this.name) mail.push({ from: this, to, data });
  }
  close() {
    open = open.filter(channel => channel !== this);
  }
}

/** Delivers one letter: the oldest from the sender of a random one to its receiver. */
function deliver(next: () => number): void {
  const pick = mail[Math.floor(next() * mail.length)]!;
  const index = mail.findIndex(letter => letter.from === pick.from && letter.to === pick.to);
  const [letter] = mail.splice(index, 1);
  if (open.includes(letter!.to)) letter!.to.onmessage?.({ data: JSON.parse(letter!.data) });
}

interface Pending {
  tab: number;
  id: string;
  edit?: string;
  answer(value: unknown): void;
  settled: Promise<unknown>;
}

test(`tabs converge to the server's latest values; guesses stay in their tab (${SCHEDULES} schedules)`, async () => {
  let clock = Date.now();
  const now = jest.spyOn(Date, 'now').mockImplementation(() => clock);
  try {
    for (let schedule = 1; schedule <= SCHEDULES; schedule++) {
      const next = random(schedule);
      mail = [];
      open = [];
      const server = new Map<string, string>();
      const answered = new Set<string>();
      const pending: Pending[] = [];
      const sent: Array<(value: unknown) => void> = [];
      const held = () => new Promise(resolve => sent.push(resolve));
      const getNote: EndpointLike<typeof Note, [string]> = { key: id => `GET ${id}`, schema: Note, fetch: held };
      const editNote: EndpointLike<typeof Note, [string, string]> = {
        key: (id, title) => `PUT ${id} ${title}`,
        schema: Note,
        sideEffect: true,
        fetch: held,
        getOptimisticResponse: (_snap, id, title) => ({ id, title: `guess:${title}` }),
      };
      const tabs: Array<ReturnType<typeof makeTab>> = [];
      function makeTab() {
        const errors: unknown[] = [];
        const cache = createLeanCache({
          features: [
            optimisticUpdates,
            crossTab({ channel: 'model', BroadcastChannel: FakeChannel, onError: error => errors.push(error) }),
          ],
        });
        const store = configureStore({
          reducer: { [cache.reducerPath]: cache.reducer },
          middleware: getDefault =>
            getDefault({ serializableCheck: false, immutableCheck: false }).concat(cache.middleware),
        });
        const title = (id: string) => (cache.selectQuery(store.getState(), Note, id) as Note | undefined)?.title;
        return { cache, store, errors, title };
      }
      tabs.push(makeTab(), makeTab());
      const lateAt = next() < 0.5 ? Math.floor(next() * STEPS) : -1;
      let edits = 0;
      for (let step = 0; step < STEPS || pending.length > 0 || mail.length > 0; step++) {
        clock += 50;
        if (step === lateAt) tabs.push(makeTab());
        const roll = next();
        const starting = step < STEPS && (roll < 0.35 || (pending.length === 0 && mail.length === 0));
        if (starting) {
          const tab = Math.floor(next() * 2);
          const { cache, store } = tabs[tab]!;
          const id = IDS[Math.floor(next() * IDS.length)]!;
          const edit = next() < 0.5 ? `v${++edits}` : undefined;
          // A read of a note the tab is reading already joins it: nothing new is sent.
          const joins = !edit && pending.some(request => request.tab === tab && request.id === id && !request.edit);
          const promise = (
            edit === undefined
              ? store.dispatch(cache.fetch(getNote, id))
              : store.dispatch(cache.fetch(editNote, id, edit))
          ) as Promise<unknown>;
          if (!joins) {
            // The request is sent in a microtask.
            for (let turn = 0; turn < 100 && sent.length === 0; turn++) await Promise.resolve();
            pending.push({ tab, id, edit, answer: sent.pop()!, settled: promise });
          }
        } else if (pending.length > 0 && (mail.length === 0 || roll < 0.7)) {
          // The server answers one request: an edit is applied as it is answered.
          const [request] = pending.splice(Math.floor(next() * pending.length), 1);
          const { id, edit } = request!;
          if (edit !== undefined) server.set(id, edit);
          answered.add(id);
          request!.answer(server.has(id) ? { id, title: server.get(id) } : { id, title: 'none' });
          if (!server.has(id)) server.set(id, 'none');
          await request!.settled;
        } else if (mail.length > 0) deliver(next);
        // A guess shows only in the tab whose edit is in flight.
        tabs.forEach((tab, index) => {
          for (const id of IDS) {
            const title = tab.title(id);
            if (title?.startsWith('guess:')) {
              const own = pending.some(request => request.tab === index && request.id === id && request.edit);
              if (!own) throw new Error(`schedule ${schedule}, step ${step}: tab ${index} shows ${title} for ${id}`);
            }
          }
        });
      }
      for (const [index, tab] of tabs.entries()) {
        for (const id of answered) {
          if (tab.title(id) !== server.get(id))
            throw new Error(
              `schedule ${schedule}: tab ${index} shows ${tab.title(id)} for ${id}, the server holds ${server.get(id)}`,
            );
        }
        expect(tab.errors).toEqual([]);
      }
    }
  } finally {
    now.mockRestore();
  }
});
