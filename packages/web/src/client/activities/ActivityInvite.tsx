/**
 * An activity invite in a conversation (a message with `activity: {type: 1, party_id}` and its
 * `application`): who invites to what, the invite's cover image (the inviter's activity's
 * `assets.invite_cover_image`, else the application's cover image), and **Join** for the others
 * while the party can be joined: when this person sees the inviter's activity, its JOIN flag (a
 * join secret, never shown) must be there, else the join would be refused (50039); an inviter
 * whose presence they do not see is left to the server. Join accepts the invite
 * (`POST /users/@me/activities/{party_id}/join`, which also hands the secret to the person's game
 * sessions as ACTIVITY_JOIN); an application with an activity is then launched (or joined) in the
 * conversation, and its frame gets ACTIVITY_JOIN with the secret.
 * When the inviter's activity can be spectated (its SPECTATE flag), **Spectate** beside Join
 * asks to watch it (`POST /users/@me/activities/{party_id}/spectate`, docs/rpc.md#spectate): the
 * person's game on their device gets ACTIVITY_SPECTATE with the spectate secret.
 *
 * @module
 */
import { useState } from 'react';
import { ActivityFlags } from '@guildhall/protocol';
import { MessageActivityType, type APIMessage } from 'discord-api-types/v10';
import { api, ApiError, errorMessage } from '../../lib/api.js';
import { useClient, useClientState } from '../context.js';
import type { ClientState } from '../state.js';
import { launchActivity } from './api.js';
import { instanceUpdated, joinAccepted } from './state.js';

type InviteMessage = Pick<APIMessage, 'author' | 'activity' | 'application'>;

/** The inviter's live activity the invite is to: this app's, with the invite's party. */
function invitedActivity(state: ClientState, message: InviteMessage) {
  const appId = message.application?.id;
  const partyId = message.activity?.party_id;
  const activities = (state.presences[message.author.id]?.activities ?? []) as {
    application_id?: string;
    party?: { id?: string };
    assets?: Record<string, unknown>;
    flags?: number;
  }[];
  return activities.find((a) => a.application_id === appId && a.party?.id === partyId);
}

/** Whether the inviter's activity can be spectated: their friends see its SPECTATE flag. */
export function canSpectate(state: ClientState, message: InviteMessage): boolean {
  return ((invitedActivity(state, message)?.flags ?? 0) & ActivityFlags.SPECTATE) !== 0;
}

/**
 * Whether to offer Join: the inviter's activity, when this person sees it, has the JOIN flag; an
 * activity they do not see (not a friend, no shared guild) is the server's to check.
 */
export function canJoin(state: ClientState, message: InviteMessage): boolean {
  const activity = invitedActivity(state, message);
  return activity === undefined || ((activity.flags ?? 0) & ActivityFlags.JOIN) !== 0;
}

/** The invite's image: the inviter's activity's own (an http(s) URL), else the app's cover. */
export function inviteCover(state: ClientState, message: InviteMessage): string | null {
  const app = message.application;
  if (app?.id === undefined) return null;
  const own = invitedActivity(state, message)?.assets?.['invite_cover_image'];
  if (typeof own === 'string' && /^https?:\/\//.test(own)) return own;
  return typeof app.cover_image === 'string'
    ? `/app-icons/${app.id}/${app.cover_image}.png?size=512`
    : null;
}

export function ActivityInvite({ message }: { message: APIMessage }) {
  const { store } = useClient();
  const me = useClientState((s) => s.me);
  const cover = useClientState((s) => inviteCover(s, message));
  const spectatable = useClientState((s) => canSpectate(s, message));
  const joinable = useClientState((s) => canJoin(s, message));
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const app = message.application;
  const partyId = message.activity?.party_id;
  if (
    message.activity?.type !== MessageActivityType.Join ||
    app?.id === undefined ||
    partyId === undefined
  ) {
    return null;
  }
  const appId = app.id;
  const name = app.name ?? 'a game';
  const inviter = message.author.global_name ?? message.author.username;

  const join = async () => {
    setBusy(true);
    setStatus(null);
    try {
      const accepted = await api<{ secret: string; application_id: string }>(
        'POST',
        `/users/@me/activities/${encodeURIComponent(partyId)}/join`,
        {
          body: {
            user_id: message.author.id,
            channel_id: message.channel_id,
            message_id: message.id,
          },
        },
      );
      store.set((s) => ({
        ...s,
        activities: joinAccepted(s.activities, { applicationId: appId, secret: accepted.secret }),
      }));
      try {
        const instance = await launchActivity(message.channel_id, appId);
        store.set((s) => ({
          ...s,
          activities: instanceUpdated(s.activities, instance, me?.id ?? ''),
        }));
      } catch (error) {
        // A game without an activity here: its sessions on the person's devices got the secret.
        if (!(error instanceof ApiError && error.code === 50035)) throw error;
        setStatus(`Joined: ${name} on your device receives the invite.`);
      }
    } catch (error) {
      setStatus(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const spectate = async () => {
    setBusy(true);
    setStatus(null);
    try {
      await api('POST', `/users/@me/activities/${encodeURIComponent(partyId)}/spectate`, {
        body: { user_id: message.author.id },
      });
      setStatus(`Spectating: ${name} on your device receives it.`);
    } catch (error) {
      setStatus(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="activity-invite" aria-label={`Invite to ${name}`}>
      {cover === null ? null : <img className="activity-invite-cover" src={cover} alt="" />}
      <p>
        {me?.id === message.author.id
          ? 'You invited them to join'
          : `${inviter} invites you to join`}{' '}
        <strong>{name}</strong>
      </p>
      {me?.id === message.author.id || !joinable ? null : (
        <button
          type="button"
          className="primary"
          disabled={busy}
          onClick={() => {
            void join();
          }}
        >
          Join
        </button>
      )}
      {me?.id === message.author.id || !spectatable ? null : (
        <button
          type="button"
          disabled={busy}
          onClick={() => {
            void spectate();
          }}
        >
          Spectate
        </button>
      )}
      {status === null ? null : <p role="status">{status}</p>}
    </section>
  );
}
