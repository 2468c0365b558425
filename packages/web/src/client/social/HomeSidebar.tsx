import { useId, useState } from 'react';
import { ChannelType } from 'discord-api-types/v10';
import { Link, useLocation, useRoute } from 'wouter';
import { errorMessage } from '../../lib/api.js';
import { ConfirmDialog } from '../../components/Dialog.js';
import { useClient, useClientState } from '../context.js';
import { closePrivateChannel } from './actions.js';
import { CreateDmDialog } from './CreateDmDialog.js';
import {
  dmRecipient,
  privateChannelName,
  privateChannelsByActivity,
  type PrivateChannel,
} from './privateChannels.js';
import { RelationshipType } from './relationships.js';
import { UserAvatar } from './UserAvatar.js';
import '../../styles/social.css';

/**
 * The home page's sidebar (/channels/@me…): the Friends link, and the DMs and group DMs, newest
 * activity first, each with a close button (a DM closes until its next message; a group DM is
 * left, after a confirmation), and "Create DM" to start one with friends.
 */
export function HomeSidebar() {
  const [atFriends] = useRoute('/channels/@me');
  const [, params] = useRoute<{ channelId: string }>('/channels/@me/:channelId');
  const openId = params?.channelId ?? null;
  const channels = useClientState((state) => state.channels);
  const privateIds = useClientState((state) => state.privateChannelIds);
  const relationships = useClientState((state) => state.relationships);
  const [creating, setCreating] = useState(false);
  const headingId = useId();
  const incoming = Object.values(relationships).filter(
    (r) => r.type === RelationshipType.PendingIncoming,
  ).length;
  const list = privateChannelsByActivity(channels, privateIds);

  return (
    <nav className="social-home" aria-label="Direct Messages">
      <Link
        href="/channels/@me"
        className="social-home-friends"
        aria-current={atFriends ? 'page' : undefined}
        aria-describedby={incoming > 0 ? `${headingId}-pending` : undefined}
      >
        Friends
        {incoming > 0 ? (
          <span className="social-badge" aria-hidden="true">
            {incoming}
          </span>
        ) : null}
      </Link>
      {incoming > 0 ? (
        <span id={`${headingId}-pending`} className="visually-hidden">
          {incoming === 1
            ? '1 pending friend request'
            : `${String(incoming)} pending friend requests`}
        </span>
      ) : null}
      <div className="social-dm-heading">
        <h2 id={headingId}>Direct Messages</h2>
        <button
          type="button"
          className="social-icon-button"
          aria-label="Create DM"
          title="Create DM"
          onClick={() => {
            setCreating(true);
          }}
        >
          +
        </button>
      </div>
      {list.length === 0 ? (
        <p className="social-empty">No direct messages yet.</p>
      ) : (
        <ul className="social-dm-list" aria-labelledby={headingId}>
          {list.map((channel) => (
            <DmItem key={channel.id} channel={channel} open={channel.id === openId} />
          ))}
        </ul>
      )}
      {creating ? (
        <CreateDmDialog
          onClose={() => {
            setCreating(false);
          }}
        />
      ) : null}
    </nav>
  );
}

function DmItem({ channel, open }: { channel: PrivateChannel; open: boolean }) {
  const { store } = useClient();
  const name = useClientState((state) => privateChannelName(channel, state));
  const [, navigate] = useLocation();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const recipient = dmRecipient(channel);
  const group = channel.type === ChannelType.GroupDM;
  const members = (channel.recipients?.length ?? 0) + 1;
  const id = useId();

  const close = async () => {
    setBusy(true);
    setError(null);
    try {
      await closePrivateChannel(store, channel.id);
      setConfirming(false);
      if (open) navigate('/channels/@me');
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <li className="social-dm">
      <Link
        href={`/channels/@me/${channel.id}`}
        className="social-dm-link"
        aria-current={open ? 'page' : undefined}
        aria-labelledby={`${id}-name`}
        aria-describedby={`${id}-status`}
      >
        {recipient === undefined ? (
          <span className="social-avatar social-avatar-group" aria-hidden="true">
            {name.slice(0, 1).toUpperCase()}
          </span>
        ) : (
          <UserAvatar user={recipient} presence statusId={`${id}-status`} />
        )}
        <span className="social-dm-text">
          <span className="social-dm-name" id={`${id}-name`}>
            {name}
          </span>
          {group ? (
            <span className="social-dm-members" id={`${id}-status`}>
              {members === 1 ? '1 Member' : `${String(members)} Members`}
            </span>
          ) : null}
        </span>
      </Link>
      <button
        type="button"
        className="social-icon-button social-dm-close"
        aria-label={group ? `Leave Group ${name}` : `Close DM with ${name}`}
        title={group ? 'Leave Group' : 'Close DM'}
        disabled={busy}
        onClick={() => {
          if (group) setConfirming(true);
          else void close();
        }}
      >
        ×
      </button>
      {error !== null && !confirming ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={`Leave '${name}'`}
          message="You will stop receiving its messages, and can come back only if someone adds you again."
          confirmLabel="Leave Group"
          busy={busy}
          error={error}
          onConfirm={() => void close()}
          onClose={() => {
            setConfirming(false);
            setError(null);
          }}
        />
      ) : null}
    </li>
  );
}
