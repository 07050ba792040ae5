/** useController: the Controller of the store in context (docs/useController.md). */

import { useStore } from 'react-redux';
import type { Controller } from '../store/runtime/Controller.js';
import { useCacheContext } from './CacheProvider.js';

/**
 * `cache.controller(store)` for the store and cache in context: the same object on every render.
 *
 * @example
 * ```tsx
 * const controller = useController();
 * const create = () => controller.fetch(getPosts.push, { group }, { title });
 * ```
 */
export function useController(): Controller<string> {
  const cache = useCacheContext('useController');
  return cache.controller(useStore());
}
