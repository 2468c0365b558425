/**
 * The General page's image fields (the app icon, the cover image): the current image, a picked
 * file's preview, Upload and Remove; the picked file is sent as a data URI.
 *
 * @module
 */
import { useState, type ReactNode } from 'react';
import { readAsDataUri, type PortalApplication } from '../model.js';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** The app's cover image from the CDN (beside its icon), or an empty frame. */
export function CoverImage({ app }: { app: Pick<PortalApplication, 'id' | 'cover_image'> }) {
  if (app.cover_image === undefined) {
    return <span className="app-cover app-cover-empty" aria-hidden="true" />;
  }
  return (
    <img
      className="app-cover"
      src={`/app-icons/${app.id}/${app.cover_image}.png?size=512`}
      alt="Cover image"
    />
  );
}

export function ImagePicker({
  label,
  noun,
  hint,
  current,
  cleared,
  hasImage,
  pending,
  error,
  onPick,
  onRemove,
}: {
  label: string;
  /** "Icon": the buttons' and messages' word for the image. */
  noun: string;
  hint?: string;
  /** The saved image, and what shows once it is removed. */
  current: ReactNode;
  cleared: ReactNode;
  hasImage: boolean;
  /** A picked data URI, null to remove, undefined for no change. */
  pending: string | null | undefined;
  error: string | undefined;
  onPick: (dataUri: string) => void;
  onRemove: () => void;
}) {
  const [readError, setReadError] = useState<string | null>(null);
  const message = error ?? readError ?? undefined;
  const lower = noun.toLowerCase();
  return (
    <div className="field icon-picker">
      <span className="field-label">{label}</span>
      {pending === undefined ? (
        current
      ) : pending === null ? (
        cleared
      ) : (
        <img
          className="app-icon"
          src={pending}
          alt={`New ${lower} preview`}
          width={96}
          height={96}
        />
      )}
      <label className="button-like">
        Upload {noun}
        <input
          type="file"
          className="visually-hidden"
          accept={IMAGE_TYPES.join(',')}
          aria-invalid={message === undefined ? undefined : true}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file === undefined) return;
            if (!IMAGE_TYPES.includes(file.type)) {
              setReadError(`The ${lower} must be a PNG, JPEG, GIF or WebP image.`);
              return;
            }
            setReadError(null);
            readAsDataUri(file).then(onPick, (failure: unknown) => {
              setReadError(failure instanceof Error ? failure.message : String(failure));
            });
          }}
        />
      </label>
      {hasImage && pending !== null ? (
        <button type="button" onClick={onRemove}>
          Remove {noun}
        </button>
      ) : null}
      {hint === undefined ? null : <p className="hint">{hint}</p>}
      {message === undefined ? null : (
        <p className="field-error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}
