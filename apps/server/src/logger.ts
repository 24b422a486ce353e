import pino from 'pino';

export type Logger = pino.Logger;

/**
 * The process logger. Secrets never reach it: request logging redacts credentials, and config values
 * are not logged.
 */
export function createLogger(
  level: string,
  name = 'lumina',
  /** Where lines go; stdout (pino's default) unless given. */
  destination?: pino.DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
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
  };
  return destination ? pino(options, destination) : pino(options);
}
