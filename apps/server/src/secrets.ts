import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Outside production, secrets that were not configured are generated once and kept in the data
 * folder (mode 0600), so a laptop install needs no set-up and restarts keep signed URLs valid.
 * Production must configure them (config.ts refuses to start otherwise).
 */
export function devSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, 'dev-secrets.json');
  const stored: Record<string, string> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  if (!stored[name]) {
    stored[name] = randomBytes(32).toString('hex');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return stored[name];
}
