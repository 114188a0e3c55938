import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { sr } from '@shared/texts/sr';
import { CATEGORIES } from '@shared/categories';
import { AUCTION_DURATIONS, DEFAULT_AUCTION_DURATION, DISABLED_AUCTION_DURATIONS, TITLE_MAX } from '@shared/rules/limits';
import { Dialog } from '../../../components/Dialog';
import { LoadingScreen } from '../../../components/LoadingScreen';
import { ApiError, NetworkError } from '../../../lib/api';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAuth } from '../../auth/use-auth';
import { createAuctionItem, uploadAuctionImages } from '../api/create-auction';
import { deleteAuction } from '../api/delete-auction';
import { auctionListsKey } from '../api/auctions-list';
import { ImagePicker, type PickedImage } from '../components/ImagePicker';
import { FIELD_ORDER, validateCreate, type CreateErrors, type CreateField, type CreateValues } from '../components/create-validation';
import '../components/create.css';

const SUCCESS_MS = 4000;
type Phase = 'editing' | 'submitting' | 'success';

const EMPTY: CreateValues = {
  title: '',
  description: '',
  current_price: '',
  auction_duration: String(DEFAULT_AUCTION_DURATION),
  city: '',
  phone_number: '',
  category: '',
};

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

/** /nova-aukcija */
export default function CreateAuctionPage() {
  useDocumentTitle(sr.auctions.createTitle);
  const auth = useAuth();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [values, setValues] = useState<CreateValues>(EMPTY);
  const [images, setImages] = useState<PickedImage[]>([]);
  const [errors, setErrors] = useState<CreateErrors>({});
  const [phase, setPhase] = useState<Phase>('editing');
  const [progress, setProgress] = useState(0);
  const [failure, setFailure] = useState<string | null>(null);
  const touched = useRef<Set<keyof CreateValues>>(new Set());
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<number | undefined>(undefined);
  const ids = { title: useId(), description: useId(), price: useId(), duration: useId(), city: useId(), phone: useId(), category: useId() };

  // City and phone come prefilled from the current user, unless the user already typed something.
  const user = auth.user;
  useEffect(() => {
    if (!user) return;
    setValues((v) => ({
      ...v,
      city: touched.current.has('city') || v.city ? v.city : (user.city ?? ''),
      phone_number: touched.current.has('phone_number') || v.phone_number ? v.phone_number : (user.phone_number ?? ''),
    }));
  }, [user]);

  // Object URLs of the previews are freed when the page goes away.
  const imagesRef = useRef(images);
  imagesRef.current = images;
  useEffect(
    () => () => {
      window.clearTimeout(timer.current);
      for (const i of imagesRef.current) if (i.url) URL.revokeObjectURL?.(i.url);
    },
    [],
  );

  const set = (field: keyof CreateValues) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
    touched.current.add(field);
    const value = e.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _gone, ...rest }) => rest);
  };

  const finish = () => {
    window.clearTimeout(timer.current);
    navigate('/aukcije');
  };

  const focusFirstError = (errs: CreateErrors) => {
    const first = FIELD_ORDER.find((f) => errs[f]);
    if (!first) return;
    window.requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus());
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const { errors: errs, data } = validateCreate(values, images.length);
    setErrors(errs);
    if (!data) {
      focusFirstError(errs);
      return;
    }
    setPhase('submitting');
    setProgress(0);
    let id: number;
    try {
      const created = await createAuctionItem(data);
      id = created.id;
    } catch (err) {
      const fieldErrs = serverFieldErrors(err);
      setErrors(fieldErrs);
      setFailure(requestError(err, sr.create.createError, sr.create.createErrorNoBody, sr.create.createFailed));
      setPhase('editing');
      focusFirstError(fieldErrs);
      return;
    }
    try {
      await uploadAuctionImages(
        id,
        images.map((i) => i.file),
        (f) => setProgress(f),
      );
    } catch (err) {
      // No auction without images is left behind: remove the one just created.
      await deleteAuction(id).catch(() => undefined);
      const fieldErrs = serverFieldErrors(err);
      setErrors(fieldErrs);
      const msg =
        err instanceof NetworkError
          ? sr.create.imagesErrorNoBody
          : requestError(err, sr.create.imagesError, sr.create.imagesFailed, sr.create.imagesFailed);
      setFailure(`${msg} ${sr.auctions.notSaved}`);
      setPhase('editing');
      return;
    }
    void qc.invalidateQueries({ queryKey: auctionListsKey });
    setPhase('success');
    timer.current = window.setTimeout(finish, SUCCESS_MS);
  };

  if (phase === 'submitting') {
    return (
      <div className="page page--narrow create-page">
        <LoadingScreen text={sr.create.submitting} />
        <div className="upload-progress">
          <label className="field__label" htmlFor="upload-progress">
            {sr.auctions.uploading}
          </label>
          <progress id="upload-progress" max={100} value={Math.round(progress * 100)}>
            {Math.round(progress * 100)}%
          </progress>
        </div>
      </div>
    );
  }

  const err = (f: CreateField) => (errors[f] ? { 'aria-invalid': true as const, 'aria-describedby': `${f}-error` } : {});
  const msg = (f: CreateField) =>
    errors[f] ? (
      <p id={`${f}-error`} className="field__error">
        {errors[f]}
      </p>
    ) : null;

  return (
    <div className="page create-page">
      <h1 className="page-title">{sr.auctions.createTitle}</h1>
      {failure && (
        <p className="alert alert--error create-page__failure" role="alert">
          {failure}
        </p>
      )}
      {phase === 'success' && (
        <p className="alert alert--success" role="status">
          {sr.create.success}
        </p>
      )}
      <form ref={formRef} className="form create-form card" onSubmit={submit} noValidate>
        <div className="field">
          <label className="field__label" htmlFor={ids.title}>
            {sr.auctions.fieldTitle}
          </label>
          <input id={ids.title} data-field="title" className="field__input" maxLength={TITLE_MAX} value={values.title} onChange={set('title')} {...err('title')} />
          {msg('title')}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.description}>
            {sr.auctions.fieldDescription}
          </label>
          <textarea
            id={ids.description}
            data-field="description"
            className="field__input"
            rows={6}
            value={values.description}
            onChange={set('description')}
            {...err('description')}
          />
          {msg('description')}
        </div>
        <div className="create-form__row">
          <div className="field">
            <label className="field__label" htmlFor={ids.price}>
              {sr.auctions.fieldPrice}
            </label>
            <input
              id={ids.price}
              data-field="current_price"
              className="field__input"
              type="number"
              inputMode="numeric"
              min={100}
              step={1}
              value={values.current_price}
              onChange={set('current_price')}
              {...err('current_price')}
            />
            {msg('current_price')}
          </div>
          <div className="field">
            <label className="field__label" htmlFor={ids.duration}>
              {sr.auctions.fieldDuration}
            </label>
            <select
              id={ids.duration}
              data-field="auction_duration"
              className="field__input"
              value={values.auction_duration}
              onChange={set('auction_duration')}
              {...err('auction_duration')}
            >
              {AUCTION_DURATIONS.map((d) => (
                <option key={d} value={d}>
                  {sr.auctions.days(d)}
                </option>
              ))}
              {DISABLED_AUCTION_DURATIONS.map((d) => (
                <option key={d} value={d} disabled>
                  {sr.auctions.days(d)} ({sr.create.soon})
                </option>
              ))}
            </select>
            {msg('auction_duration')}
          </div>
        </div>
        <div className="create-form__row">
          <div className="field">
            <label className="field__label" htmlFor={ids.city}>
              {sr.auctions.fieldCity}
            </label>
            <input id={ids.city} data-field="city" className="field__input" autoComplete="address-level2" value={values.city} onChange={set('city')} {...err('city')} />
            {msg('city')}
          </div>
          <div className="field">
            <label className="field__label" htmlFor={ids.phone}>
              {sr.auctions.fieldPhone}
            </label>
            <input
              id={ids.phone}
              data-field="phone_number"
              className="field__input"
              type="tel"
              autoComplete="tel"
              value={values.phone_number}
              onChange={set('phone_number')}
              {...err('phone_number')}
            />
            {msg('phone_number')}
          </div>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.category}>
            {sr.auctions.fieldCategory}
          </label>
          <select id={ids.category} data-field="category" className="field__input" value={values.category} onChange={set('category')} {...err('category')}>
            <option value="" disabled>
              {sr.auctions.chooseCategory}
            </option>
            {CATEGORIES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
          {msg('category')}
        </div>
        <div className="field" data-field="images" tabIndex={-1}>
          <ImagePicker
            images={images}
            error={errors.images}
            disabled={phase !== 'editing'}
            onChange={(next) => {
              setImages(next);
              if (errors.images) setErrors(({ images: _gone, ...rest }) => rest);
            }}
          />
        </div>
        <button type="submit" className="btn btn--primary btn--block" disabled={phase !== 'editing'}>
          {sr.auctions.submit}
        </button>
      </form>
      <Dialog
        open={phase === 'success'}
        title={sr.common.congrats}
        onClose={finish}
        actions={
          <button type="button" className="btn btn--brand" onClick={finish}>
            {sr.common.close}
          </button>
        }
      >
        <p>{sr.create.success}</p>
      </Dialog>
    </div>
  );
}
