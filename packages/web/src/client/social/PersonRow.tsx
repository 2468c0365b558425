import { useState, type SyntheticEvent } from 'react';
import { errorMessage } from '../../lib/api.js';
import { Field } from '../../components/Field.js';
import { useClient } from '../context.js';
import {
  addFriend,
  blockUser,
  openDm,
  reloadRelationships,
  removeRelationship,
  setFriendNickname,
} from './actions.js';
import { RelationshipType, displayName, type Relationship } from './relationships.js';
import { UserAvatar, statusLabel, useStatus } from './UserAvatar.js';

/** The line under a person's name: their status, or what the row is. */
function subtitle(type: number, status: string): string {
  switch (type) {
    case RelationshipType.PendingIncoming:
      return 'Incoming Friend Request';
    case RelationshipType.PendingOutgoing:
      return 'Outgoing Friend Request';
    case RelationshipType.Blocked:
      return 'Blocked';
    default:
      return statusLabel(status);
  }
}

/**
 * One person of the friends list with the actions their relationship allows: a friend's Message,
 * nickname, Remove Friend and Block; a request's Accept and Ignore (incoming) or Cancel
 * (outgoing); a blocked user's Unblock. The row (a list item) is named by the person.
 */
export function PersonRow({
  relationship,
  onOpenDm,
}: {
  relationship: Relationship;
  onOpenDm: (channelId: string) => void;
}) {
  const { store } = useClient();
  const { id, type, user, nickname } = relationship;
  const status = useStatus(id);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const name = displayName(user, nickname);

  /** Runs one change, then reloads the list (its events may still be on their way). */
  const run = async (change: () => Promise<unknown>, reload = true) => {
    setBusy(true);
    setError(null);
    try {
      await change();
      if (reload) await reloadRelationships(store);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  const friend = type === RelationshipType.Friend;
  return (
    <li className="social-person" aria-label={name}>
      <UserAvatar user={user} presence={friend} />
      <div className="social-person-text">
        <span className="social-person-name">{name}</span>
        <span className="social-person-username">{user.username}</span>
        <span className="social-person-status">{subtitle(type, status)}</span>
      </div>
      <div className="social-person-actions">
        {friend ? (
          <>
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() =>
                void run(async () => {
                  onOpenDm(await openDm(store, id));
                }, false)
              }
            >
              Message
            </button>
            <button
              type="button"
              disabled={busy}
              aria-expanded={editing}
              onClick={() => {
                setEditing(!editing);
              }}
            >
              Edit Nickname
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() => void run(() => removeRelationship(id))}
            >
              Remove Friend
            </button>
            <button
              type="button"
              className="danger"
              disabled={busy}
              onClick={() => void run(() => blockUser(id))}
            >
              Block
            </button>
          </>
        ) : null}
        {type === RelationshipType.PendingIncoming ? (
          <>
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() => void run(() => addFriend(id))}
            >
              Accept
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() => void run(() => removeRelationship(id))}
            >
              Ignore
            </button>
          </>
        ) : null}
        {type === RelationshipType.PendingOutgoing ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => void run(() => removeRelationship(id))}
          >
            Cancel
          </button>
        ) : null}
        {type === RelationshipType.Blocked ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => void run(() => removeRelationship(id))}
          >
            Unblock
          </button>
        ) : null}
      </div>
      {friend && editing ? (
        <NicknameForm
          current={nickname}
          busy={busy}
          onSave={(value) =>
            run(async () => {
              await setFriendNickname(id, value);
              setEditing(false);
            })
          }
          onDiscard={() => {
            setEditing(false);
          }}
        />
      ) : null}
      {error === null ? null : (
        <p className="form-error social-person-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

/** A friend's private nickname, only the owner sees it; empty clears it. */
function NicknameForm({
  current,
  busy,
  onSave,
  onDiscard,
}: {
  current: string | null;
  busy: boolean;
  onSave: (nickname: string | null) => Promise<void>;
  onDiscard: () => void;
}) {
  const [value, setValue] = useState(current ?? '');
  const onSubmit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = value.trim();
    void onSave(trimmed === '' ? null : trimmed);
  };
  return (
    <form className="social-nickname" onSubmit={onSubmit}>
      <Field
        label="Nickname"
        value={value}
        maxLength={32}
        autoFocus
        hint="Only you can see it. Leave it empty to clear it."
        onChange={(event) => {
          setValue(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onDiscard();
        }}
      />
      <button type="submit" className="primary" disabled={busy}>
        Save
      </button>
      <button type="button" onClick={onDiscard}>
        Discard
      </button>
    </form>
  );
}
