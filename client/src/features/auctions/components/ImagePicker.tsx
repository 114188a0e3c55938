import { useId, useRef, useState } from 'react';
import { sr } from '@shared/texts/sr';
import { IMAGES_MAX } from '@shared/rules/limits';
import { auctionTexts } from '@shared/texts/auctions';
import { checkImagePick } from '@shared/rules/images';

export interface PickedImage {
  key: string;
  file: File;
  url: string;
}

export interface ImagePickerProps {
  images: PickedImage[];
  onChange: (images: PickedImage[]) => void;
  error?: string;
  disabled?: boolean;
}

let seq = 0;
const makeUrl = (f: File) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(f) : '');
const dropUrl = (url: string) => {
  if (url && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(url);
};

/** Moves item `from` to index `to`. */
export function move<T>(list: T[], from: number, to: number): T[] {
  if (from === to || to < 0 || to >= list.length) return list;
  const next = list.slice();
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/**
 * Images of a new auction: only image files, at most 6, each ≤ 6 MB (spec §5 alerts), previews removable one
 * by one and reorderable by drag and drop or with the move buttons (keyboard). The first image is the cover.
 */
export function ImagePicker({ images, onChange, error, disabled }: ImagePickerProps) {
  const inputId = useId();
  const errorId = useId();
  const hintId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dragOver, setDragOver] = useState<number | null>(null);
  const [announce, setAnnounce] = useState('');

  const pick = (list: FileList | null) => {
    const picked = Array.from(list ?? []);
    if (inputRef.current) inputRef.current.value = '';
    if (picked.length === 0) return;
    const notImage = picked.find((f) => !f.type.startsWith('image/'));
    if (notImage) {
      window.alert(auctionTexts.imageNotImage(notImage.name));
      return;
    }
    const problem = checkImagePick(images.length, picked);
    if (problem) {
      window.alert(problem);
      return;
    }
    onChange([...images, ...picked.map((file) => ({ key: `img-${++seq}`, file, url: makeUrl(file) }))]);
  };

  const remove = (i: number) => {
    dropUrl(images[i].url);
    onChange(images.filter((_, n) => n !== i));
  };

  const reorder = (from: number, to: number, focusSelector?: string) => {
    const next = move(images, from, to);
    if (next === images) return;
    onChange(next);
    setAnnounce(`${next[to].file.name}: ${to + 1} / ${next.length}`);
    if (focusSelector) {
      window.requestAnimationFrame(() => document.querySelector<HTMLElement>(focusSelector)?.focus());
    }
  };

  return (
    <div className="image-picker">
      <label htmlFor={inputId} className="field__label">
        {sr.auctions.fieldImages}
      </label>
      <div className="image-picker__drop">
        <input
          ref={inputRef}
          id={inputId}
          className="image-picker__input"
          type="file"
          accept="image/*"
          multiple
          disabled={disabled || images.length >= IMAGES_MAX}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${hintId}${error ? ` ${errorId}` : ''}`}
          onChange={(e) => pick(e.target.files)}
        />
        <span className="image-picker__cta btn btn--secondary" aria-hidden="true">
          {sr.auctions.addImages} ({images.length}/{IMAGES_MAX})
        </span>
      </div>
      <p id={hintId} className="field__hint">
        {sr.auctions.imagesHint}
      </p>
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
      {images.length > 0 && (
        <ol className="image-picker__list">
          {images.map((img, i) => (
            <li
              key={img.key}
              className={`image-picker__item${dragOver === i && dragFrom !== i ? ' image-picker__item--over' : ''}${dragFrom === i ? ' image-picker__item--dragging' : ''}`}
              draggable={!disabled}
              data-testid="image-preview"
              data-name={img.file.name}
              onDragStart={(e) => {
                setDragFrom(i);
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', String(i));
              }}
              onDragOver={(e) => {
                e.preventDefault();
                e.dataTransfer.dropEffect = 'move';
                setDragOver(i);
              }}
              onDragLeave={() => setDragOver((o) => (o === i ? null : o))}
              onDrop={(e) => {
                e.preventDefault();
                const from = dragFrom ?? Number(e.dataTransfer.getData('text/plain'));
                if (Number.isInteger(from)) reorder(from, i);
                setDragFrom(null);
                setDragOver(null);
              }}
              onDragEnd={() => {
                setDragFrom(null);
                setDragOver(null);
              }}
            >
              <img src={img.url} alt={img.file.name} className="image-picker__thumb" draggable={false} />
              {i === 0 && <span className="image-picker__cover">{sr.auctions.coverImage}</span>}
              <div className="image-picker__actions">
                <button
                  type="button"
                  className="image-picker__btn"
                  data-move-up={img.key}
                  aria-label={sr.auctions.moveUp(i + 1)}
                  disabled={disabled || i === 0}
                  onClick={() => reorder(i, i - 1, `[data-move-up="${img.key}"]:not([disabled]), [data-move-down="${img.key}"]`)}
                >
                  ←
                </button>
                <button
                  type="button"
                  className="image-picker__btn"
                  data-move-down={img.key}
                  aria-label={sr.auctions.moveDown(i + 1)}
                  disabled={disabled || i === images.length - 1}
                  onClick={() => reorder(i, i + 1, `[data-move-down="${img.key}"]:not([disabled]), [data-move-up="${img.key}"]`)}
                >
                  →
                </button>
                <button
                  type="button"
                  className="image-picker__btn image-picker__btn--remove"
                  aria-label={sr.auctions.removeImage(i + 1)}
                  disabled={disabled}
                  onClick={() => remove(i)}
                >
                  ×
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}
      <p className="visually-hidden" aria-live="polite">
        {announce}
      </p>
    </div>
  );
}
