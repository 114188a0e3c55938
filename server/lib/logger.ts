import pino, { type Logger } from 'pino';

/** pino with redaction: logs never carry passwords, tokens or cookies. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["x-csrftoken"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.password_hash',
        '*.token',
        '*.id_token',
      ],
      censor: '[redacted]',
    },
  });
}
