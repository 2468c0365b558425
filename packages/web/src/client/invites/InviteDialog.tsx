import { useEffect, useState } from 'react';
import type { APIChannel, APIInvite } from 'discord-api-types/v10';
import { api, errorMessage } from '../../lib/api.js';
import { FormError } from '../../components/Field.js';
import { CopyField } from '../../components/CopyField.js';
import { Dialog } from '../../components/Dialog.js';

/** The link that opens an invite in this client (the platform's `/invite/{code}` path). */
export function inviteUrl(code: string): string {
  return `${location.origin}/invite/${code}`;
}

/**
 * "Create Invite": POST /channels/{id}/invites (the platform's defaults: 7 days, unlimited uses,
 * an existing matching invite reused), then the link to copy.
 */
export function InviteDialog({ channel, onClose }: { channel: APIChannel; onClose: () => void }) {
  const [code, setCode] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
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
  return (
    <Dialog title={`Invite friends to #${channel.name ?? ''}`} onClose={onClose}>
      <FormError message={error} />
      {code === null ? (
        <p role="status">{error === null ? 'Creating an invite…' : ''}</p>
      ) : (
        <CopyField label="Invite link" value={inviteUrl(code)} hint="The link works for 7 days." />
      )}
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}
