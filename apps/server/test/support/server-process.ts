import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/main.ts');

/**
 * Runs the real server entry point as an operator would (its own process, only the environment
 * given), capturing its output.
 */
export function startServerProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** Waits up to a minute (a loaded machine starts slowly) for `/api/ready`; the last status seen. */
export async function waitUntilReady(baseUrl: string): Promise<number | undefined> {
  let ready: Response | undefined;
  for (let i = 0; i < 300 && !ready?.ok; i++) {
    await new Promise((r) => setTimeout(r, 200));
    ready = await fetch(`${baseUrl}/api/ready`).catch(() => undefined);
  }
  return ready?.status;
}
