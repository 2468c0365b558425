/**
 * @module gateway/dmCallCommand: op 4 with `guild_id: null` and a private channel's id: joining
 * its call (starting it when there is none, which rings the other recipients), and leaving it
 * (`channel_id: null`, or the session's end). Only a recipient's person session, or an SDK session
 * whose token may read DMs (and of the DM's game, for a game DM), joins; a bot never does; in a
 * DM with a bot or across a block either way the platform leaves the user where they were. The recipients get
 * VOICE_STATE_UPDATE and CALL_* (resources/calls); the joiner's session gets one voice state per
 * member already in the call, then its own, then VOICE_SERVER_UPDATE
 * `{token, guild_id: null, channel_id, endpoint}`.
 */
import { ChannelTypes } from '@guildhall/protocol';
import { mayAccess } from '../domain/tokenAccess.js';
import { dispatchingStorage } from '../events/afterCommit.js';
import { callsInProgress, dmVoiceStateWire, type CallLifecycle } from '../resources/calls/index.js';
import type { PrivateChannelRecord, Storage } from '../storage/index.js';
import type { VoiceStateUpdatePayload } from './clientOps.js';
import { InvalidCommandError, type CommandContext, type CommandSession } from './commandContext.js';
import { EncodedDispatch } from './frames.js';
import type { ReadySocial } from './payloads.js';
import type { Session } from './session.js';
import { needsServer, serverUpdate, type VoiceServers } from './voiceServer.js';

/**
 * What follows a session's READY: a CALL_CREATE per call in progress in its user's DMs and group
 * DMs. An SDK session's: in the DMs its READY shows; a bot's (no social graph) or a token's
 * without DM access: none.
 */
export async function readyCalls(
  storage: Storage,
  session: Pick<Session, 'userId' | 'sdk' | 'grant'>,
  social: ReadySocial | undefined,
): Promise<EncodedDispatch[]> {
  if (social === undefined) return [];
  const dms = new Set(social.privateChannels.map((c) => (c as { id: string }).id));
  const shown = (id: string) =>
    session.sdk ? dms.has(id) : mayAccess(session.grant, 'dmChannels');
  const calls = await callsInProgress(storage, session.userId, shown);
  return calls.map((call) => new EncodedDispatch('CALL_CREATE', call));
}

export function createDmCallCommand(deps: {
  voice: VoiceServers | null;
  calls: CallLifecycle | null;
}) {
  const { voice, calls } = deps;

  /** Refuses a session that may not join this channel's call; false: ignored (a block). */
  async function mayJoin(
    ctx: CommandContext,
    session: CommandSession,
    record: PrivateChannelRecord,
  ): Promise<boolean> {
    if (session.isApp === true) throw new InvalidCommandError('a bot cannot join a DM call');
    if (session.grant !== undefined && !mayAccess(session.grant, 'dmChannels')) {
      throw new InvalidCommandError('a DM call needs a token that may read DMs');
    }
    if (!record.recipients.some((r) => r.userId === session.userId)) {
      throw new InvalidCommandError('not a recipient of the channel');
    }
    const game = record.channel.applicationId;
    if (game !== null && session.sdk === true && session.applicationId !== game) {
      throw new InvalidCommandError('a DM of another game');
    }
    if (record.channel.type !== ChannelTypes.DM) return true;
    // Nobody calls a bot, nor anyone across a block.
    const other = record.recipients.find((r) => r.userId !== session.userId)?.userId;
    if (other === undefined) return true;
    const user = await ctx.storage.users.findById(other);
    return (
      user !== null &&
      !user.bot &&
      !(await ctx.storage.relationships.isBlockedEitherWay(session.userId, other))
    );
  }

  /** Op 4 naming the private channel `record`. */
  async function join(
    ctx: CommandContext,
    input: {
      session: CommandSession;
      d: VoiceStateUpdatePayload;
      record: PrivateChannelRecord;
    },
  ) {
    const { session, d, record } = input;
    if (calls === null) throw new InvalidCommandError('DM calls are not served here');
    if (!(await mayJoin(ctx, session, record))) return;
    const channelId = record.channel.id;
    // Picked before anything is stored: a voice node that cannot be picked changes nothing.
    const endpoint = voice === null ? null : await voice.endpointFor(channelId);
    const storage = dispatchingStorage(ctx.storage, ctx.events);
    const joined = await storage.transaction((tx) =>
      calls.join(tx, {
        record,
        state: {
          userId: session.userId,
          sessionId: session.id,
          selfMute: d.self_mute,
          selfDeaf: d.self_deaf,
          selfVideo: d.self_video,
        },
        nowMs: ctx.clock.now(),
      }),
    );
    const server =
      voice !== null && endpoint !== null && needsServer(joined.previous, joined.state);
    if (server) {
      for (const other of joined.others) {
        ctx.reply('VOICE_STATE_UPDATE', dmVoiceStateWire(other, channelId));
      }
    }
    ctx.events.dispatch(joined.announce);
    if (!server) return;
    const game = record.channel.applicationId;
    ctx.events.dispatch({
      guildId: null,
      channelId,
      userIds: [session.userId],
      ...(game === null ? {} : { applicationId: game }),
      ...serverUpdate(
        {
          userId: session.userId,
          sessionId: session.id,
          serverId: channelId,
          guildId: null,
          channelId,
        },
        { endpoint, nowMs: ctx.wireClock.now(), tokens: voice.tokens },
      ),
    });
  }

  /**
   * Op 4 with `channel_id: null`: leaves the user's DM call. An SDK session leaves only a call
   * it holds itself (a game leaving its lobby call does not end the person's DM call).
   */
  async function leave(ctx: CommandContext, session: CommandSession) {
    if (calls === null) return;
    const storage = dispatchingStorage(ctx.storage, ctx.events);
    await storage.transaction((tx) =>
      calls.leave(tx, {
        userId: session.userId,
        nowMs: ctx.clock.now(),
        ...(session.sdk === true ? { sessionId: session.id } : {}),
      }),
    );
  }

  /** A gateway session ended: the DM call it held is left. */
  async function sessionEnded(ctx: CommandContext, sessionId: string) {
    if (calls === null) return;
    const storage = dispatchingStorage(ctx.storage, ctx.events);
    for (const state of await ctx.storage.calls.listVoiceStatesOfSession(sessionId)) {
      await storage.transaction((tx) =>
        calls.leave(tx, { userId: state.userId, nowMs: ctx.clock.now(), sessionId }),
      );
    }
  }

  return { join, leave, sessionEnded };
}
