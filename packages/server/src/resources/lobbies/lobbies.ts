/** The lobby itself: create, create-or-join by secret, get, modify and delete. */
import { hashSecret } from '../../domain/credentials.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { LobbyRecord, LobbyPatch, Repositories } from '../../storage/index.js';
import { ApiError } from '../../errors/index.js';
import { isSnowflake } from '@guildhall/protocol';
import { lobbyDispatches } from './dispatch.js';
import { removeMember, upsertMember } from './membership.js';
import {
  LOBBY_LIMITS,
  type CreateLobbyInput,
  type CreateOrJoinInput,
  type LobbyMemberInput,
  type ModifyLobbyInput,
} from './schemas.js';
import { serializeLobby, type LobbyView } from './serialize.js';
import {
  applicationOf,
  idleExpired,
  loadLobby,
  refreshEmptied,
  requireUsers,
  viewOf,
  type LobbyServiceDeps,
} from './shared.js';

/** The last entry for each user id (a request naming a user twice keeps the last). */
function byUser(members: readonly LobbyMemberInput[]): LobbyMemberInput[] {
  return [...new Map(members.map((m) => [m.id, m])).values()];
}

export function createLobbyCore(deps: LobbyServiceDeps) {
  const { storage, clock, ids } = deps;
  const consume = deps.limits.consume.bind(deps.limits);
  const wire = (view: LobbyView, principal: Principal) =>
    serializeLobby(view, { forApplication: principal.kind === 'bot' });

  /** A new lobby row of the application, with the request's settings. */
  const newLobby = (
    applicationId: string,
    input: {
      metadata?: LobbyRecord['metadata'] | undefined;
      idleTimeoutSeconds?: number | null | undefined;
      flags?: number | null | undefined;
      overrideUrl?: string | null | undefined;
      secretHash?: string | null;
    },
  ): LobbyRecord => {
    const now = clock.now();
    return {
      id: ids(),
      applicationId,
      metadata: input.metadata ?? null,
      flags: input.flags ?? 0,
      idleTimeoutSeconds: input.idleTimeoutSeconds ?? LOBBY_LIMITS.defaultIdleTimeoutSeconds,
      linkedChannelId: null,
      overrideEventWebhooksUrl: input.overrideUrl ?? null,
      secretHash: input.secretHash ?? null,
      secretExpiresAt: input.secretHash == null ? null : now + LOBBY_LIMITS.secretLifetimeMs,
      createdAt: now,
      emptiedAt: null,
    };
  };

  /** Writes a lobby and its first members (each checked against the limits); one LOBBY_CREATE. */
  const insertLobby = async (
    tx: Repositories,
    lobby: LobbyRecord,
    members: readonly LobbyMemberInput[],
  ): Promise<LobbyView> => {
    await requireUsers(
      tx,
      members.map((m) => m.id),
    );
    if (!(await tx.lobbies.create(lobby))) throw new Error('lobby id or secret taken');
    const view: LobbyView = { lobby, members: [], linkedChannel: null };
    for (const member of members) {
      // Joins go through the same checks as later ones; the new lobby is announced once, below.
      await upsertMember(tx, view, {
        change: { userId: member.id, metadata: member.metadata, flags: member.flags },
        now: lobby.createdAt,
        onRefusal: 'throw',
        announce: false,
      });
    }
    if (view.members.length > 0) afterCommit(tx, lobbyDispatches.create(view));
    return view;
  };

  return {
    /** POST /lobbies (a bot): a lobby of its application with up to 25 members. */
    async create(principal: Principal, input: CreateLobbyInput) {
      const applicationId = applicationOf(principal);
      await consume(applicationId, 'lobby_create');
      const view = await storage.transaction(async (tx) => {
        const lobby = newLobby(applicationId, {
          metadata: input.metadata,
          idleTimeoutSeconds: input.idle_timeout_seconds,
          flags: input.flags,
          overrideUrl: input.override_event_webhooks_url,
        });
        return insertLobby(tx, lobby, byUser(input.members ?? []));
      });
      return wire(view, principal);
    },

    /**
     * PUT /lobbies: joins the application's lobby of this secret, or makes it (the caller its
     * first member). A secret is good for 30 days; after that (or once its lobby idled away) the
     * same secret makes a new lobby. lobby_metadata overwrites the lobby's, member_metadata the
     * caller's.
     */
    async createOrJoin(principal: Principal, input: CreateOrJoinInput) {
      const applicationId = applicationOf(principal);
      await consume(applicationId, 'lobby_create_or_join');
      const secretHash = hashSecret(`${applicationId}:${input.secret}`);
      const view = await storage.transaction(async (tx) => {
        const now = clock.now();
        const found = await tx.lobbies.findBySecret(applicationId, secretHash);
        let view: LobbyView | null = found === null ? null : await viewOf(tx, found);
        if (
          found !== null &&
          view !== null &&
          ((found.secretExpiresAt ?? 0) <= now || idleExpired(found, view.members.length, now))
        ) {
          // The old lobby keeps living (until idle) without its secret; the secret is reused.
          await tx.lobbies.update(found.id, { secretHash: null, secretExpiresAt: null });
          view = null;
        }
        if (view === null) {
          const lobby = newLobby(applicationId, {
            metadata: input.lobby_metadata,
            idleTimeoutSeconds: input.idle_timeout_seconds,
            flags: input.flags,
            secretHash,
          });
          if (await tx.lobbies.create(lobby)) {
            view = { lobby, members: [], linkedChannel: null };
          } else {
            // Another request made the lobby of this secret meanwhile: join that one.
            const made = await tx.lobbies.findBySecret(applicationId, secretHash);
            if (made === null) throw new ApiError('RESOURCE_LOCKED');
            view = await viewOf(tx, made);
          }
        } else {
          const patch: LobbyPatch = {
            ...(input.lobby_metadata === undefined ? {} : { metadata: input.lobby_metadata }),
            ...(input.idle_timeout_seconds == null
              ? {}
              : { idleTimeoutSeconds: input.idle_timeout_seconds }),
            ...(input.flags == null ? {} : { flags: input.flags }),
          };
          if (Object.keys(patch).length > 0) {
            await tx.lobbies.update(view.lobby.id, patch);
            view.lobby = { ...view.lobby, ...patch };
            afterCommit(tx, lobbyDispatches.update(view));
          }
        }
        await upsertMember(tx, view, {
          change: { userId: principal.user.id, metadata: input.member_metadata },
          now,
          onRefusal: 'throw',
        });
        return view;
      });
      return wire(view, principal);
    },

    /** GET /lobbies/{id} (the application's bot). */
    async get(principal: Principal, lobbyId: string) {
      const applicationId = applicationOf(principal);
      const view = await loadLobby(storage, { lobbyId, applicationId, now: clock.now() });
      return wire(view, principal);
    },

    /**
     * PATCH /lobbies/{id}: metadata is overwritten (null clears it); `members`, when given,
     * replaces the member list (those left out are removed, the others added or updated).
     */
    async modify(principal: Principal, lobbyId: string, input: ModifyLobbyInput) {
      const applicationId = applicationOf(principal);
      await consume(applicationId, 'lobby_update');
      const view = await storage.transaction(async (tx) => {
        const now = clock.now();
        const view = await loadLobby(tx, { lobbyId, applicationId, now });
        const patch: LobbyPatch = {
          ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
          ...(input.idle_timeout_seconds == null
            ? {}
            : { idleTimeoutSeconds: input.idle_timeout_seconds }),
          ...(input.flags == null ? {} : { flags: input.flags }),
          ...(input.override_event_webhooks_url === undefined
            ? {}
            : { overrideEventWebhooksUrl: input.override_event_webhooks_url }),
        };
        if (input.members != null) {
          const wanted = byUser(input.members);
          await requireUsers(
            tx,
            wanted.map((m) => m.id),
          );
          const keep = new Set(wanted.map((m) => m.id));
          for (const member of [...view.members]) {
            if (!keep.has(member.userId))
              await removeMember(tx, view, { userId: member.userId, now });
          }
          for (const member of wanted) {
            await upsertMember(tx, view, {
              change: { userId: member.id, metadata: member.metadata, flags: member.flags },
              now,
              onRefusal: 'throw',
            });
          }
        }
        if (Object.keys(patch).length > 0) {
          await tx.lobbies.update(view.lobby.id, patch);
          view.lobby = { ...view.lobby, ...patch };
          view.lobby = await refreshEmptied(tx, view.lobby, now);
        }
        afterCommit(tx, lobbyDispatches.update(view));
        return view;
      });
      return wire(view, principal);
    },

    /** DELETE /lobbies/{id}: 204 whether or not it still existed; LOBBY_DELETE to its members. */
    async delete(principal: Principal, lobbyId: string) {
      const applicationId = applicationOf(principal);
      await storage.transaction(async (tx) => {
        const lobby = isSnowflake(lobbyId) ? await tx.lobbies.findById(lobbyId) : null;
        if (lobby === null) return;
        if (lobby.applicationId !== applicationId) throw new ApiError('UNKNOWN_LOBBY');
        const members = await tx.lobbies.listMembers(lobby.id);
        // Deleting the lobby ends its call: each participant's leave, then LOBBY_DELETE.
        const calls = await tx.lobbies.listVoiceStates(lobby.id);
        await tx.lobbies.delete(lobby.id);
        const userIds = members.map((m) => m.userId);
        afterCommit(
          tx,
          calls.map((state) => lobbyDispatches.voiceState(lobby, { userIds, state, left: true })),
        );
        if (members.length > 0) afterCommit(tx, lobbyDispatches.delete(lobby, userIds));
      });
    },
  };
}
