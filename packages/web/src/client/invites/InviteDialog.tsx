import { useEffect, useId, useState } from 'react';
import type { APIChannel, APIInvite } from 'discord-api-types/v10';
import { api, errorMessage } from '../../lib/api.js';
import { FormError } from '../../components/Field.js';
import { Dialog } from '../ui/Dialog.js';

/** The link that opens an invite in this client (the platform's `/invite/{code}` path). */
export function inviteUrl(code: string): string {
  return `${location.origin}/invite/${code}`;
}

/**
 * "Create Invite": POST /channels/{id}/invites (the platform's defaults: 7 days, unlimited uses,
 * an existing matching invite reused), then the link to copy.
 */
export function InviteDialog({ channel, onClose }: { channel: APIChannel; onClose: () => void }) {
  const inputId = useId();
  const [code, setCode] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    let live = true;
    api<APIInvite>('POST', `/channels/${channel.id}/invites`, { body: {} }).then(
      (invite) => {
        if (live) setCode(invite.code);
      },
      (e: unknown) => {
        if (live) setError(errorMessage(e));
      },
    );
    return () => {
      live = false;
    };
  }, [channel.id]);
  const url = code === null ? '' : inviteUrl(code);
  return (
    <Dialog title={`Invite friends to #${channel.name ?? ''}`} onClose={onClose}>
      <FormError message={error} />
      <div className="field">
        <label htmlFor={inputId}>Invite link</label>
        <div className="copy-row">
          <input
            id={inputId}
            readOnly
            value={url}
            placeholder={error === null ? 'Creating…' : ''}
            onFocus={(event) => {
              event.currentTarget.select();
            }}
          />
          <button
            type="button"
            disabled={code === null}
            onClick={() => {
              // No clipboard outside a secure context: the text stays selectable in the field.
              Promise.resolve()
                .then(() => navigator.clipboard.writeText(url))
                .then(
                  () => {
                    setCopied(true);
                  },
                  () => undefined,
                );
            }}
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
        </div>
        <p className="hint" role="status">
          {copied ? 'Link copied.' : 'The link works for 7 days.'}
        </p>
      </div>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}
