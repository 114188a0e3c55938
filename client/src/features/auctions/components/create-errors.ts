import { sr } from '@shared/texts/sr';
import { ApiError, NetworkError } from '../../../lib/api';
import { CreateAuctionError } from '../api/create-auction';
import { FIELD_ORDER, type CreateErrors } from './create-validation';

/** 'Greška pri …: ' + the server's message, or the text without a body (spec §8). */
function requestError(err: unknown, withBody: string, noBody: string, non2xx: string): string {
  if (err instanceof ApiError) {
    const msg = typeof err.body.message === 'string' ? err.body.message : typeof err.body.detail === 'string' ? err.body.detail : '';
    return msg ? `${withBody}${msg}` : err.status >= 500 ? non2xx : noBody;
  }
  return noBody;
}

/** Field errors of a 400 answer ({field: [msg]}). */
function serverFieldErrors(err: unknown): CreateErrors {
  const out: CreateErrors = {};
  if (!(err instanceof ApiError)) return out;
  for (const f of FIELD_ORDER) {
    const m = err.field(f === 'images' ? 'image' : f) ?? (f === 'images' ? err.field('images') : undefined);
    if (m) out[f] = m;
  }
  return out;
}

export interface CreateFailure {
  step: 'create' | 'images';
  errors: CreateErrors;
  /** The alert above the form. */
  text: string;
}

/** What the form shows after a failed submit (a CreateAuctionError from useCreateAuction). */
export function createFailure(err: unknown): CreateFailure {
  const step = err instanceof CreateAuctionError ? err.step : 'create';
  const cause = err instanceof CreateAuctionError ? err.error : err;
  const errors = serverFieldErrors(cause);
  if (step === 'create') {
    return { step, errors, text: requestError(cause, sr.create.createError, sr.create.createErrorNoBody, sr.create.createFailed) };
  }
  const msg =
    cause instanceof NetworkError
      ? sr.create.imagesErrorNoBody
      : requestError(cause, sr.create.imagesError, sr.create.imagesFailed, sr.create.imagesFailed);
  return { step, errors, text: `${msg} ${sr.auctions.notSaved}` };
}
