/**
 * The library's one timer for user delays (docs/live-data.md#timers): any length is waited for,
 * including lengths `setTimeout` cannot hold (above 2^31−1 ms it fires after 1 ms, which fake
 * timers reproduce); a delay that is not a number of ms is a coded error.
 */
import { ErrorCode } from '../../src/index';
import { MAX_TIMEOUT, startTimer } from '../../src/base/timers';

const DAY = 24 * 60 * 60 * 1_000;

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test('a delay longer than setTimeout holds is waited for in full, once', () => {
  let ran = 0;
  startTimer(() => ran++, 30 * DAY);
  jest.advanceTimersByTime(1_000);
  expect(ran).toBe(0);
  jest.advanceTimersByTime(30 * DAY - 1_001);
  expect(ran).toBe(0);
  jest.advanceTimersByTime(1);
  expect(ran).toBe(1);
  jest.advanceTimersByTime(100 * DAY);
  expect(ran).toBe(1);
});

test('the limit itself and short delays take one timer; several steps add up exactly', () => {
  let ran = 0;
  const timers = jest.spyOn(globalThis, 'setTimeout');
  startTimer(() => ran++, MAX_TIMEOUT);
  jest.advanceTimersByTime(MAX_TIMEOUT - 1);
  // One setTimeout for the whole wait: the limit is waited for in one step.
  expect(timers).toHaveBeenCalledTimes(1);
  expect(ran).toBe(0);
  jest.advanceTimersByTime(1);
  expect(ran).toBe(1);
  startTimer(() => ran++, 3 * MAX_TIMEOUT + 5);
  jest.advanceTimersByTime(3 * MAX_TIMEOUT + 4);
  expect(ran).toBe(1);
  jest.advanceTimersByTime(1);
  expect(ran).toBe(2);
  timers.mockClear();
  startTimer(() => ran++, 0);
  jest.advanceTimersByTime(0);
  expect(ran).toBe(3);
  expect(timers).toHaveBeenCalledTimes(1);
  timers.mockRestore();
});

test('cancel stops the wait at any step; Infinity never runs', () => {
  let ran = 0;
  const cancel = startTimer(() => ran++, 2 * MAX_TIMEOUT);
  jest.advanceTimersByTime(MAX_TIMEOUT + 10);
  cancel();
  cancel();
  jest.advanceTimersByTime(4 * MAX_TIMEOUT);
  expect(ran).toBe(0);
  expect(jest.getTimerCount()).toBe(0);
  startTimer(() => ran++, Infinity);
  expect(jest.getTimerCount()).toBe(0);
});

test('a delay that is not a number of milliseconds is refused with a coded error', () => {
  for (const bad of [NaN, -1, '1000', undefined, null]) {
    expect(() => startTimer(() => undefined, bad as number)).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_OPTION }),
    );
  }
  expect(jest.getTimerCount()).toBe(0);
});
