import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useCreateAuction } from '../api/create-auction';
import { createFailure } from '../components/create-errors';
import { validateCreate } from '../components/create-validation';
import type { CreateAuctionFormState } from './use-create-auction-form';

/** How long the success message stays before the list of auctions. */
const SUCCESS_MS = 4000;

export type CreatePhase = 'editing' | 'submitting' | 'success';

/**
 * Submitting the new-auction form: validate, create and upload with progress, then the success message and
 * /aukcije; on a failure back to editing with the user's input kept.
 */
export function useCreateAuctionSubmit(form: CreateAuctionFormState) {
  const navigate = useNavigate();
  const create = useCreateAuction();
  const [phase, setPhase] = useState<CreatePhase>('editing');
  const [progress, setProgress] = useState(0);
  const [failure, setFailure] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const finish = () => {
    window.clearTimeout(timer.current);
    navigate('/aukcije');
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const { errors, data } = validateCreate(form.values, form.images.length);
    form.setErrors(errors);
    if (!data) {
      form.focusFirstError(errors);
      return;
    }
    setPhase('submitting');
    setProgress(0);
    try {
      await create.mutateAsync({ values: data, files: form.images.map((i) => i.file), onProgress: setProgress });
    } catch (err) {
      const failed = createFailure(err);
      form.setErrors(failed.errors);
      setFailure(failed.text);
      setPhase('editing');
      if (failed.step === 'create') form.focusFirstError(failed.errors);
      return;
    }
    setPhase('success');
    timer.current = window.setTimeout(finish, SUCCESS_MS);
  };

  return { phase, progress, failure, submit, finish };
}
