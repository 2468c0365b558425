/**
 * @module resources/calls/ringing: ringing a private channel's call over REST. A member of the
 * call rings recipients (`POST /channels/{id}/call/ring`); a recipient declines by stopping its
 * own ringing (`POST /channels/{id}/call/stop-ringing`), and a member of the call may stop anyone's.
 * Only the channel's recipients see it (10003 otherwise); bots cannot call (20001); nobody rings
 * across a block (50007).
 */
import type { Principal } from '../../http/authenticator.js';
import { afterCommit } from '../../events/afterCommit.js';
import { ApiError } from '../../errors/index.js';
import type { PrivateChannelRecord, Repositories, Storage } from '../../storage/index.js';
import { requireAccess } from '../access/index.js';
import { ringableRecipients } from './lifecycle.js';
import { callDispatches } from './wire.js';

/**
 * The private channel as its recipient `principal` sees it: 10003 for anyone else (a game DM of
 * another game's token too), 20001 for a bot, 50001 for a Bearer token without DM access.
 */
export async function loadCallChannel(
  repos: Pick<Repositories, 'privateChannels'>,
  principal: Principal,
  channelId: string,
): Promise<PrivateChannelRecord> {
  if (principal.kind === 'bot' || principal.user.bot) {
    throw new ApiError('BOTS_CANNOT_USE_ENDPOINT');
  }
  requireAccess(principal, 'dmChannels', 'MISSING_ACCESS');
  const record = await repos.privateChannels.find(channelId);
  const game = record?.channel.applicationId ?? null;
  if (
    record === null ||
    !record.recipients.some((r) => r.userId === principal.user.id) ||
    (game !== null && principal.kind === 'bearer' && principal.applicationId !== game)
  ) {
    throw new ApiError('UNKNOWN_CHANNEL');
  }
  return record;
}

/**
 * How long a call rings before it stops by itself (the platform's figure is not published):
 * counted from the call's start, or from the last ring request that added someone.
 */
export const RING_TIMEOUT_MS = 60_000;

export function createRingingService(deps: { storage: Storage; clock: { now(): number } }) {
  const { storage, clock } = deps;

  return {
    /** Rings `recipients` (null: every other recipient it may) in the caller's call. */
    async ring(principal: Principal, channelId: string, recipients: readonly string[] | null) {
      const me = principal.user.id;
      const record = await loadCallChannel(storage, principal, channelId);
      const ids = record.recipients.map((r) => r.userId);
      if (recipients?.some((id) => !ids.includes(id)) === true) throw new ApiError('UNKNOWN_USER');
      await storage.transaction(async (tx) => {
        await tx.calls.lock(channelId);
        const call = await tx.calls.findCall(channelId);
        const mine = await tx.calls.findVoiceState(me);
        if (call === null || mine?.channelId !== channelId) {
          throw new ApiError('TARGET_USER_NOT_IN_VOICE');
        }
        for (const id of recipients ?? []) {
          if (id !== me && (await tx.relationships.isBlockedEitherWay(me, id))) {
            throw new ApiError('CANNOT_SEND_MESSAGES_TO_USER');
          }
        }
        const inCall = new Set((await tx.calls.listVoiceStates(channelId)).map((s) => s.userId));
        const wanted = await ringableRecipients(tx, { record, callerId: me, inCall }, recipients);
        const added = wanted.filter((id) => !call.ringing.includes(id));
        if (added.length === 0) return;
        const next = { ...call, ringing: [...call.ringing, ...added], rangAt: clock.now() };
        await tx.calls.putCall(next);
        afterCommit(tx, callDispatches.update(record, next));
      });
    },

    /**
     * Stops ringing `recipients` (null: the caller, which declines the call). Only a member of the
     * call stops another's; with no call there is nothing to stop.
     */
    async stopRinging(
      principal: Principal,
      channelId: string,
      recipients: readonly string[] | null,
    ) {
      const me = principal.user.id;
      const record = await loadCallChannel(storage, principal, channelId);
      const targets = recipients ?? [me];
      await storage.transaction(async (tx) => {
        await tx.calls.lock(channelId);
        const call = await tx.calls.findCall(channelId);
        if (call === null) return;
        if (targets.some((id) => id !== me)) {
          const mine = await tx.calls.findVoiceState(me);
          if (mine?.channelId !== channelId) throw new ApiError('TARGET_USER_NOT_IN_VOICE');
        }
        const ringing = call.ringing.filter((id) => !targets.includes(id));
        if (ringing.length === call.ringing.length) return;
        const next = { ...call, ringing };
        await tx.calls.putCall(next);
        afterCommit(tx, callDispatches.update(record, next));
      });
    },

    /**
     * Stops the ringing of up to `limit` calls that rang for {@link RING_TIMEOUT_MS} (a
     * CALL_UPDATE with an empty `ringing` each); returns how many (the timed sweep's task).
     */
    async stopExpiredRinging(limit: number): Promise<number> {
      const cutoff = clock.now() - RING_TIMEOUT_MS;
      const due = await storage.calls.listRingingSince(cutoff, limit);
      for (const found of due) {
        await storage.transaction(async (tx) => {
          await tx.calls.lock(found.channelId);
          const call = await tx.calls.findCall(found.channelId);
          const record = await tx.privateChannels.find(found.channelId);
          if (call === null || record === null) return;
          if (call.ringing.length === 0 || call.rangAt > cutoff) return;
          const next = { ...call, ringing: [] };
          await tx.calls.putCall(next);
          afterCommit(tx, callDispatches.update(record, next));
        });
      }
      return due.length;
    },

    /** Whether the caller may ring anyone in the channel (`GET .../call`): `{ringable}`. */
    async ringable(principal: Principal, channelId: string) {
      const record = await loadCallChannel(storage, principal, channelId);
      const others = await ringableRecipients(
        storage,
        { record, callerId: principal.user.id, inCall: new Set() },
        null,
      );
      return { ringable: others.length > 0 };
    },
  };
}

export type RingingService = ReturnType<typeof createRingingService>;
