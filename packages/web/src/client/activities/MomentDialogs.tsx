/**
 * The frame's image and moment dialogs: "Upload an image" (INITIATE_IMAGE_UPLOAD: the person
 * picks an image and the client uploads it for the activity) and "Share" for a moment
 * (OPEN_SHARE_MOMENT_DIALOG: the person picks a DM or channel and the media's link is sent
 * there). Each is a form that makes its request itself and shows the API's refusal.
 *
 * @module
 */
import { useState, type SyntheticEvent } from 'react';
import { Dialog } from '../../components/Dialog.js';
import { FormError } from '../../components/Field.js';
import { useApiForm } from '../../components/useApiForm.js';
import { IMAGE_TYPES, type ShareTarget } from './momentAbilities.js';

export interface ImageQuestion {
  kind: 'image';
  upload: (file: File) => Promise<string>;
  answer: (imageUrl: string | null) => void;
}

export interface MomentQuestion {
  kind: 'moment';
  mediaUrl: string;
  targets: ShareTarget[];
  send: (channelId: string) => Promise<void>;
  answer: (shared: boolean) => void;
}

function Actions({ cancel, label, ready }: { cancel: () => void; label: string; ready: boolean }) {
  return (
    <div className="dialog-actions">
      <button type="button" onClick={cancel}>
        Cancel
      </button>
      <button type="submit" className="primary" disabled={!ready}>
        {label}
      </button>
    </div>
  );
}

export function ImageUploadDialog({ question }: { question: ImageQuestion }) {
  const [file, setFile] = useState<File | null>(null);
  const form = useApiForm();
  const cancel = () => {
    question.answer(null);
  };
  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (file === null) return;
    void form.submit(() => question.upload(file), { onSuccess: question.answer });
  };
  return (
    <Dialog
      title="Upload an image"
      description="The activity asks for an image: it gets a link to it, valid for a while."
      onClose={cancel}
    >
      <form onSubmit={submit}>
        <FormError message={form.summary([])} />
        <label className="field">
          Image{' '}
          <input
            type="file"
            accept={IMAGE_TYPES.join(',')}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
            }}
          />
        </label>
        <Actions cancel={cancel} label="Upload" ready={file !== null && !form.busy} />
      </form>
    </Dialog>
  );
}

export function ShareMomentDialog({ question }: { question: MomentQuestion }) {
  const [target, setTarget] = useState(question.targets[0]?.channelId ?? '');
  const form = useApiForm();
  const cancel = () => {
    question.answer(false);
  };
  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (target === '') return;
    void form.submit(() => question.send(target), {
      onSuccess: () => {
        question.answer(true);
      },
    });
  };
  return (
    <Dialog title="Share" description={question.mediaUrl} onClose={cancel}>
      <form onSubmit={submit}>
        <FormError message={form.summary([])} />
        {question.targets.length === 0 ? (
          <p>You have no conversation to share it in.</p>
        ) : (
          <label className="field">
            Send to{' '}
            <select
              value={target}
              onChange={(event) => {
                setTarget(event.target.value);
              }}
            >
              {question.targets.map((t) => (
                <option key={t.channelId} value={t.channelId}>
                  {t.label}
                </option>
              ))}
            </select>
          </label>
        )}
        <Actions cancel={cancel} label="Send" ready={target !== '' && !form.busy} />
      </form>
    </Dialog>
  );
}
