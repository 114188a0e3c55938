import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { srv } from '@shared/texts/server';
import { isDatabaseUnavailable } from '../db/unavailable';

export type FieldErrors = Record<string, string[]>;

/**
 * The one error type. The handler writes design.md §5's shape:
 * `{ detail, message, code, ...fields, ...extra }` where each field holds a list of Serbian messages and
 * `extra` holds other values of the answer (e.g. numbers a client needs to try again).
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields?: FieldErrors;
  /**
   * Other values the body carries next to the messages, e.g. a refused bid's `current_price` and
   * `min_amount` (numbers). Added to the body, never replacing `detail`, `message`, `code` or a field.
   */
  readonly extra?: Record<string, unknown>;

  constructor(status: number, code: string, message: string, fields?: FieldErrors, extra?: Record<string, unknown>) {
    // An AppError is an expected answer (a refused bid, a 403, a 404), never logged with a stack, so none is
    // captured: that capture was ~2 % of busy time when most bids are refused (docs/performance.md, B1).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.extra = extra;
  }

  static badRequest(message: string, fields?: FieldErrors, code = 'invalid') {
    return new AppError(400, code, message, fields);
  }
  /** A single-field validation error: `{field: [message], detail: message}`. */
  static field(field: string, message: string, status = 400, code = 'invalid', extra?: Record<string, unknown>) {
    return new AppError(status, code, message, { [field]: [message] }, extra);
  }
  static notAuthenticated() {
    return new AppError(403, 'not_authenticated', srv.notAuthenticated);
  }
  static forbidden(message: string = srv.forbidden) {
    return new AppError(403, 'forbidden', message);
  }
  static notFound(message: string = srv.notFound) {
    return new AppError(404, 'not_found', message);
  }
}

export function errorBody(err: AppError): Record<string, unknown> {
  return { ...(err.fields ?? {}), ...(err.extra ?? {}), detail: err.message, message: err.message, code: err.code };
}

/** Answers `err` in the contract's shape: the handler below, and a route that got a refusal as a value. */
export function sendError(res: Response, err: AppError): void {
  res.status(err.status).json(errorBody(err));
}

/** How long a client is told to wait (Retry-After) while the database does not answer. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Turns anything thrown into the contract's JSON; never a stack trace or SQL. A database that cannot be
 * reached is a 503 `unavailable` with a Retry-After, logged once every few seconds, not a 500 per request.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  let unavailableLogged = 0;
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    let appErr: AppError;
    if (err instanceof AppError) {
      appErr = err;
    } else if (err && typeof err === 'object' && 'type' in err && err.type === 'entity.parse.failed') {
      appErr = new AppError(400, 'bad_json', srv.badJson);
    } else if (err && typeof err === 'object' && 'type' in err && err.type === 'entity.too.large') {
      appErr = new AppError(413, 'too_large', srv.tooLarge);
    } else if (err && typeof err === 'object' && 'status' in err && typeof err.status === 'number' && err.status >= 400 && err.status < 500) {
      appErr = new AppError(err.status, 'bad_request', srv.invalidInput);
    } else if (isDatabaseUnavailable(err)) {
      if (Date.now() - unavailableLogged > 5_000) {
        unavailableLogged = Date.now();
        logger.error({ err, url: req.originalUrl, method: req.method }, 'database unavailable: answering 503');
      }
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      appErr = new AppError(503, 'unavailable', srv.unavailable);
    } else {
      logger.error({ err, url: req.originalUrl, method: req.method }, 'unhandled error');
      appErr = new AppError(500, 'internal', srv.internal);
    }
    sendError(res, appErr);
  };
}

export const apiNotFound: RequestHandler = (_req, res) => {
  sendError(res, AppError.notFound());
};
