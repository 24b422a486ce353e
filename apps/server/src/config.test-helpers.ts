import { ConfigError, loadConfig } from './config.ts';

/** The start-up problems `env` would stop the server with (empty when it would start). */
export function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}
