// The one Node global the library reads: `process.env.NODE_ENV`, which bundlers replace with a
// string (docs/production.md). Declared in the shape Node's own types give it, so the declarations
// merge when @types/node is present (tests, typecheck) and stand alone in the library build.
declare namespace NodeJS {
  interface ProcessEnv {
    [key: string]: string | undefined;
  }
  interface Process {
    env: ProcessEnv;
  }
}
// eslint-disable-next-line no-var -- the global is a `var` in Node's types; a `const` would not merge with it.
declare var process: NodeJS.Process;
