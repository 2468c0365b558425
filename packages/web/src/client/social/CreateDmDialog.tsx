import { useState, type SyntheticEvent } from 'react';
import { useLocation } from 'wouter';
import { errorMessage } from '../../lib/api.js';
import { Dialog } from '../../components/Dialog.js';
import { useClient, useClientState } from '../context.js';
import { openDm, openGroupDm } from './actions.js';
import { RelationshipType, displayName } from './relationships.js';

/** A group DM holds at most 10 users, the caller included (30011 past it). */
const MAX_OTHERS = 9;

/**
 * "Create DM": pick friends; one opens the DM with them, several make a group DM
 * (POST /users/@me/channels with `recipient_id`, or `recipients`). Goes to the conversation.
 */
export function CreateDmDialog({ onClose }: { onClose: () => void }) {
  const { store } = useClient();
  const relationships = useClientState((state) => state.relationships);
  const [, navigate] = useLocation();
  const [picked, setPicked] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const friends = Object.values(relationships)
    .filter((r) => r.type === RelationshipType.Friend)
    .map((r) => ({ id: r.id, name: displayName(r.user, r.nickname), username: r.user.username }))
    .sort((a, b) => a.name.localeCompare(b.name));

  const onSubmit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const [first] = picked;
    if (first === undefined) return;
    setBusy(true);
    setError(null);
    try {
      const id =
        picked.length === 1 ? await openDm(store, first) : await openGroupDm(store, picked);
      onClose();
      navigate(`/channels/@me/${id}`);
    } catch (caught) {
      setError(errorMessage(caught));
      setBusy(false);
    }
  };

  const toggle = (id: string, on: boolean) => {
    setPicked((current) => (on ? [...current, id] : current.filter((p) => p !== id)));
  };

  return (
    <Dialog
      title="Select Friends"
      description={`One friend for a DM, or up to ${String(MAX_OTHERS)} for a group DM.`}
      onClose={onClose}
    >
      <form onSubmit={(event) => void onSubmit(event)}>
        {friends.length === 0 ? (
          <p className="social-empty">You have no friends to message yet: add some first.</p>
        ) : (
          <fieldset className="social-pick">
            <legend className="visually-hidden">Friends</legend>
            {friends.map((friend) => {
              const checked = picked.includes(friend.id);
              return (
                <label key={friend.id} className="social-pick-row">
                  <input
                    type="checkbox"
                    checked={checked}
                    disabled={!checked && picked.length >= MAX_OTHERS}
                    onChange={(event) => {
                      toggle(friend.id, event.target.checked);
                    }}
                  />
                  <span>{friend.name}</span>
                  <span className="social-person-username">{friend.username}</span>
                </label>
              );
            })}
          </fieldset>
        )}
        {error === null ? null : (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy || picked.length === 0}>
            {picked.length > 1 ? 'Create Group DM' : 'Create DM'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
