/**
 * How a paginated list's request is sent: with the pages its list holds, fetched again and joined
 * into one response of the list (docs/pagination.md, "Refetching a list that holds pages").
 */

import { stableStringify } from '../../../base/json.js';
import type { ListPlace } from '../../../rest/types.js';
import type { EndpointLike } from '../../endpoint.js';
import { BASE, sameParam, sequence, type ListRecord } from '../../runtime/pages.js';
import type { JoinedPages, PageWay } from '../../types.js';

type Runner = (args: readonly unknown[], signal: AbortSignal) => Promise<unknown>;

/**
 * The request of `endpoint`: `run` itself, unless the endpoint is a paginated list that holds
 * pages when the request starts (`held`). Then each page it holds, in the list's order (its own
 * answer is `run`; the others are sent as the store sends any endpoint: `runnerOf`, with its
 * request options), at most `maxPages`, joined into one response of the list and told to
 * `joined`. Pages that the list comes to hold while these are fetched (a "load more" answered
 * meanwhile) are fetched too. A page's request tells `joined` which way the page goes.
 */
export function pagedRunner(
  endpoint: EndpointLike,
  run: Runner,
  held: (place: ListPlace) => ListRecord | undefined,
  joined: (pages: JoinedPages | PageWay) => void,
  runnerOf: (endpoint: EndpointLike) => Runner,
): Runner {
  const paging = endpoint.pagination;
  if (paging?.kind === 'page') {
    // A page goes before the list's pages when it was the list's previous page as it was asked for.
    return (args, signal) => {
      const record = held(paging.place(args));
      const param = paging.param(args);
      joined({ back: sameParam(record?.previous, param) && !sameParam(record?.next, param) });
      return run(args, signal);
    };
  }
  if (paging?.kind !== 'list') return run;
  const bounded = (record: ListRecord | undefined) => sequence(record).slice(0, paging.maxPages);
  return async (args, signal) => {
    const place = paging.place(args);
    const record = paging.firstOnly ? undefined : held(place);
    if (!record?.pages.length) return run(args, signal);
    const answers = new Map<unknown, unknown>();
    const idOf = (page: unknown) => (page === BASE ? BASE : stableStringify(page));
    let pages = bounded(record);
    for (let missing = pages; missing.length > 0;) {
      for (const page of missing) {
        signal.throwIfAborted();
        const [pageEndpoint, pageArgs] = page === BASE ? [] : paging.pageRequest(args, page);
        answers.set(
          idOf(page),
          await (pageEndpoint ? runnerOf(pageEndpoint as EndpointLike)(pageArgs!, signal) : run(args, signal)),
        );
      }
      pages = bounded(held(place) ?? record);
      missing = pages.filter(page => !answers.has(idOf(page)));
    }
    const responses = pages.map(page => answers.get(idOf(page)));
    const base = pages.indexOf(BASE);
    joined({
      params: pages.filter(page => page !== BASE),
      base: base < 0 ? null : base,
      first: responses[0],
      last: responses[responses.length - 1],
      sizes: responses.map(response => paging.items(response)?.length ?? 0),
    });
    return paging.combine(responses, Math.max(base, 0));
  };
}
