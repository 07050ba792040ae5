/** Development warnings (src/base/env.ts): printed once per message, with a bounded memory of what was printed. */
import { warnOnce } from '../../src/base/env';

test('a message is printed once, and the set of printed messages is bounded (the oldest is forgotten)', () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    warnOnce('env test: first');
    warnOnce('env test: first');
    expect(warn).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 1_000; i++) warnOnce(`env test: filler ${i}`);
    warn.mockClear();
    warnOnce('env test: first');
    expect(warn).toHaveBeenCalledTimes(1);
  } finally {
    warn.mockRestore();
  }
});
