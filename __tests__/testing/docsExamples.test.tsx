/**
 * @jest-environment jsdom
 */
/**
 * The test examples of docs/testing.md are tests themselves: each is loaded here, in Jest's plain
 * jsdom environment as an app's tests run, and its tests run as written. Each in its own module
 * registry, as each declares its own `Post`.
 */
const examples = ['testing-component.tsx', 'testing-hook.tsx', 'testing-mutation.tsx'];

for (const file of examples) {
  describe(`docs/examples/${file}`, () => {
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(`../../docs/examples/${file}`);
    });
  });
}
