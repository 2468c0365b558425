import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { api, errorMessage } from '../../lib/api.js';
import { ConfirmDialog } from '../../components/Dialog.js';
import { Field, FormError } from '../../components/Field.js';
import { useApiForm } from '../../components/useApiForm.js';
import { useApplication } from '../context.js';
import { PageTitle } from '../forms.js';
import { readAsDataUri } from '../model.js';
import { collect } from '../validation.js';

interface Asset {
  id: string;
  type: 1 | 2;
  name: string;
}

const TYPE_LABELS = { 1: 'Small', 2: 'Large' } as const;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const MAX_ASSETS = 300;

/** Rich presence art: upload with a name and a size, the list with previews, delete. */
export function RichPresencePage() {
  const { app } = useApplication();
  const [assets, setAssets] = useState<Asset[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const assetsHeading = useRef<HTMLHeadingElement>(null);
  const [deleting, setDeleting] = useState<Asset | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    // The platform's public list: no token needed.
    api<Asset[]>('GET', `/oauth2/applications/${app.id}/assets`, {
      auth: false,
      signal: controller.signal,
    }).then(setAssets, (error: unknown) => {
      if (!controller.signal.aborted) setLoadError(errorMessage(error));
    });
    return () => {
      controller.abort();
    };
  }, [app.id]);

  const remove = async (asset: Asset) => {
    setDeleteBusy(true);
    setDeleteError(null);
    try {
      await api('DELETE', `/applications/${app.id}/assets/${asset.id}`);
      setAssets((list) => (list ?? []).filter((a) => a.id !== asset.id));
      setDeleting(null);
      // The button that opened the dialog is gone with the asset: keep keyboard users on the
      // list rather than on the page's body.
      requestAnimationFrame(() => {
        assetsHeading.current?.focus();
      });
    } catch (error) {
      setDeleteError(errorMessage(error));
    } finally {
      setDeleteBusy(false);
    }
  };

  return (
    <div className="settings-form">
      <PageTitle title="Rich Presence">
        Images your game shows in a player's activity, named as your code refers to them.
      </PageTitle>
      <UploadForm
        applicationId={app.id}
        full={assets !== null && assets.length >= MAX_ASSETS}
        onUploaded={(asset) => {
          setAssets((list) => [...(list ?? []), asset]);
        }}
      />
      <h2 ref={assetsHeading} tabIndex={-1}>
        Assets
      </h2>
      <FormError message={loadError} />
      {assets === null ? (
        loadError === null ? (
          <p role="status">Loading assets…</p>
        ) : null
      ) : assets.length === 0 ? (
        <p>No assets yet.</p>
      ) : (
        <ul className="asset-grid">
          {assets.map((asset) => (
            <li key={asset.id} className="asset-card">
              <img
                src={`/app-assets/${app.id}/${asset.id}.png`}
                alt={asset.name}
                width={asset.type === 2 ? 128 : 64}
                height={asset.type === 2 ? 128 : 64}
              />
              <span className="mono">{asset.name}</span>
              <span className="hint">{TYPE_LABELS[asset.type]}</span>
              <button
                type="button"
                className="danger"
                aria-label={`Delete ${asset.name}`}
                onClick={() => {
                  setDeleteError(null);
                  setDeleting(asset);
                }}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      {deleting === null ? null : (
        <ConfirmDialog
          title={`Delete ${deleting.name}?`}
          message="Activities that name this asset will show no image."
          confirmLabel="Delete"
          busy={deleteBusy}
          error={deleteError}
          onConfirm={() => void remove(deleting)}
          onClose={() => {
            setDeleting(null);
          }}
        />
      )}
    </div>
  );
}

function UploadForm({
  applicationId,
  full,
  onUploaded,
}: {
  applicationId: string;
  full: boolean;
  onUploaded: (asset: Asset) => void;
}) {
  const form = useApiForm();
  const [name, setName] = useState('');
  const [type, setType] = useState<1 | 2>(2);
  const [image, setImage] = useState<string | null>(null);
  const [fileKey, setFileKey] = useState(0);

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    void form.submit(
      () =>
        api<Asset>('POST', `/applications/${applicationId}/assets`, {
          body: { name, type, image },
        }),
      {
        validate: () =>
          collect({
            name:
              name === ''
                ? 'This field is required.'
                : name.length > 32
                  ? 'Must be 32 or fewer in length.'
                  : /^[a-z0-9_]+$/.test(name)
                    ? undefined
                    : 'Asset names use lower-case letters, digits and underscores.',
            image: image === null ? 'Pick an image.' : undefined,
          }),
        onSuccess: (asset) => {
          onUploaded(asset);
          setName('');
          setImage(null);
          setFileKey((key) => key + 1);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="card upload-form" aria-labelledby="asset-upload">
      <h2 id="asset-upload">Upload an asset</h2>
      <FormError message={form.summary(['name', 'type', 'image'])} />
      <Field
        key={fileKey}
        label="Image file"
        type="file"
        accept={IMAGE_TYPES.join(',')}
        error={form.errors['image']}
        hint="PNG, JPEG, GIF or WebP; at least 512×512 looks best."
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file === undefined) {
            setImage(null);
            return;
          }
          readAsDataUri(file).then(setImage, () => {
            form.setErrors({ image: 'The file could not be read.' });
          });
        }}
      />
      {image === null ? null : (
        <img className="asset-preview" src={image} alt="Preview of the picked image" width={96} />
      )}
      <Field
        label="Asset name"
        value={name}
        maxLength={32}
        error={form.errors['name']}
        hint="Lower-case letters, digits and underscores: your code names the image with it."
        onChange={(event) => {
          setName(event.target.value);
        }}
      />
      <div className="field">
        <label htmlFor="asset-type">Type</label>
        <select
          id="asset-type"
          value={type}
          onChange={(event) => {
            setType(event.target.value === '1' ? 1 : 2);
          }}
        >
          <option value={2}>Large</option>
          <option value={1}>Small</option>
        </select>
        {form.errors['type'] === undefined ? null : (
          <p className="field-error" role="alert">
            {form.errors['type']}
          </p>
        )}
      </div>
      <button type="submit" className="primary" disabled={form.busy || full}>
        {full ? `At most ${String(MAX_ASSETS)} assets` : 'Upload Asset'}
      </button>
    </form>
  );
}
