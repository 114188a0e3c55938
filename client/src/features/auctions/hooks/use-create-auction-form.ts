import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { DEFAULT_AUCTION_DURATION } from '@shared/rules/limits';
import { useAuth } from '../../auth/use-auth';
import type { PickedImage } from '../components/ImagePicker';
import { FIELD_ORDER, type CreateErrors, type CreateValues } from '../components/create-validation';

const EMPTY: CreateValues = {
  title: '',
  description: '',
  current_price: '',
  auction_duration: String(DEFAULT_AUCTION_DURATION),
  city: '',
  phone_number: '',
  category: '',
  buy_now_price: '',
  reserve_price: '',
};

export type FieldChange = ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>;

/** City and phone come prefilled from the current user, unless the user already typed something. */
function usePrefill(setValues: (update: (v: CreateValues) => CreateValues) => void, touched: Set<keyof CreateValues>, on: boolean) {
  const { user } = useAuth();
  useEffect(() => {
    if (!user || !on) return;
    setValues((v) => ({
      ...v,
      city: touched.has('city') || v.city ? v.city : (user.city ?? ''),
      phone_number: touched.has('phone_number') || v.phone_number ? v.phone_number : (user.phone_number ?? ''),
    }));
  }, [user, setValues, touched, on]);
}

/** The previews' object URLs are freed when the page goes away. */
function useRevokeOnUnmount(images: PickedImage[]) {
  const imagesRef = useRef(images);
  imagesRef.current = images;
  useEffect(
    () => () => {
      for (const i of imagesRef.current) if (i.url) URL.revokeObjectURL?.(i.url);
    },
    [],
  );
}

/**
 * The values, images and per-field errors of the new-auction form; an edit clears its field's error.
 * `initial`: the values of an auction being edited (issue 26), shown as they are (no prefill from the profile).
 */
export function useCreateAuctionForm(initial?: CreateValues) {
  const [values, setValues] = useState<CreateValues>(initial ?? EMPTY);
  const [images, setImages] = useState<PickedImage[]>([]);
  const [errors, setErrors] = useState<CreateErrors>({});
  const touched = useRef<Set<keyof CreateValues>>(new Set()).current;
  const formRef = useRef<HTMLFormElement>(null);
  usePrefill(setValues, touched, !initial);
  useRevokeOnUnmount(images);

  const change = (field: keyof CreateValues) => (e: FieldChange) => {
    touched.add(field);
    const value = e.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _gone, ...rest }) => rest);
  };

  const changeImages = (next: PickedImage[]) => {
    setImages(next);
    if (errors.images) setErrors(({ images: _gone, ...rest }) => rest);
  };

  const focusFirstError = (errs: CreateErrors) => {
    const first = FIELD_ORDER.find((f) => errs[f]);
    if (!first) return;
    window.requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus());
  };

  return { values, images, errors, setErrors, change, changeImages, formRef, focusFirstError };
}

export type CreateAuctionFormState = ReturnType<typeof useCreateAuctionForm>;
