import pino from 'pino';

export type Logger = pino.Logger;

/**
 * The process logger. Secrets never reach it: request logging redacts credentials, and config values
 * are not logged.
 *
 * Lines go to stdout synchronously. pino's default asynchronous stdout flushes what is left at exit
 * with a loop that retries a failed write every 100 ms until it succeeds, so a process whose log pipe
 * had gone (its parent died) closed its port on SIGTERM and then never exited. Written synchronously,
 * a broken pipe fails the write at once, and pino then stops logging (its EPIPE handling) instead.
 */
export function createLogger(
  level: string,
  name = 'lumina',
  /** Where lines go; synchronous stdout (see above) unless given. */
  destination: pino.DestinationStream = pino.destination({ dest: 1, sync: true }),
): Logger {
  return pino(
    {
      name,
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["st-refresh-token"]',
          'req.headers["st-access-token"]',
          'req.headers["stripe-signature"]',
          'res.headers["set-cookie"]',
          'res.headers["st-access-token"]',
          'res.headers["st-refresh-token"]',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
