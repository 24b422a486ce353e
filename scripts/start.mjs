#!/usr/bin/env node
// `npm start`: builds the web app when its build is missing or older than its sources, then runs the
// server (API + in-process worker), which serves the built app. Signals are passed through so the
// server can shut down gracefully.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps/web');
const builtIndex = path.join(web, 'dist/index.html');

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(target).map((name) => newestMtime(path.join(target, name))));
}

const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((p) =>
  path.join(web, p),
);
const contracts = path.join(root, 'packages/contracts/src');
const stale =
  !existsSync(builtIndex) ||
  Math.max(...sources.map(newestMtime), newestMtime(contracts)) > statSync(builtIndex).mtimeMs;

if (stale && process.env.SKIP_WEB_BUILD !== '1') {
  console.log('Building the web app…');
  // Always a production bundle: a NODE_ENV of test or development here would make Vite ship React's
  // development build (jsxDEV) to the browser.
  const build = spawnSync('npm', ['run', 'build', '-w', '@lumina/web'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const args = ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts'), ...process.argv.slice(2)];
// glibc gives each thread that allocates (libvips' and libuv's) its own malloc arena, up to 8 per core,
// and keeps freed memory in them: two arenas make the memory of large image decodes go back to the
// system sooner (sharp's documentation recommends it; docs/decisions.md, "Bounded image decoding"). It
// must be in the environment before the process starts, hence here; an operator's own value wins.
const env = { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' };
const server = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
