import type { FormEvent } from 'react';
import { sr } from '@shared/texts/sr';
import { auctionTexts } from '@shared/texts/auctions';
import { CATEGORIES } from '@shared/categories';
import { AUCTION_DURATIONS, DISABLED_AUCTION_DURATIONS, MIN_STARTING_PRICE, TITLE_MAX } from '@shared/rules/limits';
import { SelectField, TextAreaField, TextField } from '../../../components/TextField';
import type { CreateAuctionFormState } from '../hooks/use-create-auction-form';
import type { CreateValues } from './create-validation';
import { ImagePicker } from './ImagePicker';

const t = sr.auctions;

export interface CreateAuctionFormProps {
  form: CreateAuctionFormState;
  /** After a successful submit, while the success message shows. */
  disabled: boolean;
  onSubmit: (e: FormEvent) => void;
  /** Editing an auction (issue 26): no duration (the end never changes), no images, its own button. */
  edit?: { submit: string };
}

/** The seven fields and the images of a new auction; `data-field` is where a failed submit puts the focus. */
export function CreateAuctionForm({ form, disabled, onSubmit, edit }: CreateAuctionFormProps) {
  const { values, errors, change } = form;
  const bind = (f: keyof CreateValues) => ({ 'data-field': f, value: values[f], onChange: change(f), error: errors[f] });
  return (
    <form ref={form.formRef} className="form create-form card" onSubmit={onSubmit} noValidate>
      <TextField label={t.fieldTitle} maxLength={TITLE_MAX} {...bind('title')} />
      <TextAreaField label={t.fieldDescription} rows={6} {...bind('description')} />
      <div className="create-form__row">
        <TextField label={t.fieldPrice} type="number" inputMode="numeric" min={MIN_STARTING_PRICE} step={1} {...bind('current_price')} />
        {!edit && (
          <SelectField label={t.fieldDuration} {...bind('auction_duration')}>
            {AUCTION_DURATIONS.map((d) => (
              <option key={d} value={d}>
                {t.days(d)}
              </option>
            ))}
            {DISABLED_AUCTION_DURATIONS.map((d) => (
              <option key={d} value={d} disabled>
                {t.days(d)} ({sr.create.soon})
              </option>
            ))}
          </SelectField>
        )}
      </div>
      <div className="create-form__row">
        <TextField label={auctionTexts.buyNowLabel} type="number" inputMode="numeric" min={MIN_STARTING_PRICE} step={1} {...bind('buy_now_price')} />
        <TextField label={auctionTexts.reserveLabel} type="number" inputMode="numeric" min={MIN_STARTING_PRICE} step={1} hint={auctionTexts.reserveHint} {...bind('reserve_price')} />
      </div>
      <div className="create-form__row">
        <TextField label={t.fieldCity} autoComplete="address-level2" {...bind('city')} />
        <TextField label={t.fieldPhone} type="tel" autoComplete="tel" {...bind('phone_number')} />
      </div>
      <SelectField label={t.fieldCategory} {...bind('category')}>
        <option value="" disabled>
          {t.chooseCategory}
        </option>
        {CATEGORIES.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </SelectField>
      {!edit && (
        <div className="field" data-field="images" tabIndex={-1}>
          <ImagePicker images={form.images} error={errors.images} disabled={disabled} onChange={form.changeImages} />
        </div>
      )}
      <button type="submit" className="btn btn--primary btn--block" disabled={disabled}>
        {edit ? edit.submit : t.submit}
      </button>
    </form>
  );
}
