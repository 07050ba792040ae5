// `npm start` on a port that is taken: a clear message naming the port and the PORT variable,
// exit code 1, no stack trace.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { test } from 'node:test';
import assert from 'node:assert/strict';

test('npm start on a busy port says so and how to choose another', async () => {
  const holder = createServer();
  await new Promise(resolve => holder.listen(0, '127.0.0.1', resolve));
  const { port } = holder.address();
  try {
    const start = spawn(process.execPath, ['example/start.mjs'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    start.stdout.on('data', chunk => (out += chunk));
    start.stderr.on('data', chunk => (err += chunk));
    const code = await new Promise(resolve => start.on('exit', resolve));
    assert.equal(code, 1, `exit code (stdout: ${out}, stderr: ${err})`);
    assert.match(err, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
    assert.match(err, /PORT=\d+ npm start/);
    assert.doesNotMatch(err, /\n\s+at /, 'no stack trace');
  } finally {
    await new Promise(resolve => holder.close(resolve));
  }
});
