import { useState } from 'react';
import type { APIChannel, APIMessage } from 'discord-api-types/v10';
import { api, errorMessage } from '../../lib/api.js';
import { AppsMenuItems } from '../apps/AppsMenu.js';
import { ConfirmDialog } from '../../components/Dialog.js';
import { Menu } from '../ui/Menu.js';

/** What the current user may do with a message: which of the menu's items it offers. */
export interface MessageAbilities {
  /** The current user wrote it: edit and delete. */
  own: boolean;
  /** MANAGE_MESSAGES: delete others' messages. */
  manage: boolean;
  /** PIN_MESSAGES (or a DM): pin and unpin. */
  pin: boolean;
  /** ADD_REACTIONS. */
  react: boolean;
}

/**
 * A message's menu ("More", right-click, Shift+F10): pin or unpin, edit, copy, delete, and the
 * apps' message commands.
 */
export function MessageMenu({
  message,
  channel,
  abilities,
  onEdit,
  onClose,
}: {
  message: APIMessage;
  channel: APIChannel;
  abilities: MessageAbilities;
  onEdit: () => void;
  onClose: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = (action: () => Promise<unknown>) => {
    action().then(onClose, (e: unknown) => {
      setError(errorMessage(e));
    });
  };
  const pinPath = `/channels/${message.channel_id}/messages/pins/${message.id}`;
  const canDelete = abilities.own || abilities.manage;

  if (confirming) {
    return (
      <ConfirmDialog
        title="Delete Message"
        message="Are you sure you want to delete this message?"
        confirmLabel="Delete"
        error={error}
        onConfirm={() => {
          run(() => api('DELETE', `/channels/${message.channel_id}/messages/${message.id}`));
        }}
        onClose={onClose}
      />
    );
  }

  return (
    <Menu label="Message actions" className="message-menu" onClose={onClose}>
      {abilities.pin ? (
        <button
          type="button"
          role="menuitem"
          onClick={() => {
            run(() => api(message.pinned ? 'DELETE' : 'PUT', pinPath));
          }}
        >
          {message.pinned ? 'Unpin Message' : 'Pin Message'}
        </button>
      ) : null}
      {abilities.own ? (
        <button
          type="button"
          role="menuitem"
          onClick={() => {
            onClose();
            onEdit();
          }}
        >
          Edit Message
        </button>
      ) : null}
      {message.content === '' ? null : (
        <button
          type="button"
          role="menuitem"
          onClick={() => {
            run(() => navigator.clipboard.writeText(message.content));
          }}
        >
          Copy Text
        </button>
      )}
      <AppsMenuItems target={{ kind: 'message', message }} channel={channel} onDone={onClose} />
      {canDelete ? (
        <button
          type="button"
          role="menuitem"
          className="danger-text"
          onClick={() => {
            setConfirming(true);
          }}
        >
          Delete Message
        </button>
      ) : null}
      {error === null ? null : (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </Menu>
  );
}
