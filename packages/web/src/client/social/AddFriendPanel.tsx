import { useState, type SyntheticEvent } from 'react';
import { errorMessage } from '../../lib/api.js';
import { Field } from '../../components/Field.js';
import { useClient } from '../context.js';
import { reloadRelationships, sendFriendRequest } from './actions.js';

/**
 * "Add Friend": a request by username (POST /users/@me/relationships). The API's answer is shown
 * under the field: 80004 for nobody of that name, 80007 for a friend already, 80001 for a block.
 */
export function AddFriendPanel() {
  const { store } = useClient();
  const [username, setUsername] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [sent, setSent] = useState<string | null>(null);

  const onSubmit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = username.trim();
    if (name === '') return;
    setBusy(true);
    setError(undefined);
    setSent(null);
    try {
      await sendFriendRequest(name);
      setSent(name);
      setUsername('');
      // The new outgoing request shows under Pending even before its event arrives.
      await reloadRelationships(store).catch(() => undefined);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="social-add-friend" onSubmit={(event) => void onSubmit(event)} noValidate>
      <h2>Add Friend</h2>
      <p className="hint">You can add friends with their username.</p>
      <Field
        label="Username"
        name="username"
        autoComplete="off"
        maxLength={32}
        value={username}
        error={error}
        onChange={(event) => {
          setUsername(event.target.value);
          setError(undefined);
        }}
      />
      <button type="submit" className="primary" disabled={busy || username.trim() === ''}>
        Send Friend Request
      </button>
      <p role="status" className="social-success">
        {sent === null ? '' : `Your friend request to ${sent} was sent.`}
      </p>
    </form>
  );
}
