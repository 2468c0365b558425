/**
 * @module gateway/voiceCommand: op 4, Voice State Update. In a guild it stores the session's voice
 * state and announces it (VOICE_STATE_UPDATE, VOICE_CHANNEL_START_TIME_UPDATE); when the session
 * joined or moved to a channel it also gets VOICE_SERVER_UPDATE `{token, guild_id, endpoint}`:
 * the voice node holding the call and a token for it (docs/gateway.md#voice).
 *
 * VOICE_SERVER_UPDATE goes on the bus right after the VOICE_STATE_UPDATE, on the same subject and
 * addressed to the one session: it reaches the session after its own voice state, the order a
 * client's voice adapter (discord.js) needs, on one node or several.
 */
import { ChannelTypes, PermissionFlags as P, isVoiceChannelType } from '@guildhall/protocol';
import type { Dispatch } from '../events/dispatcher.js';
import { serializeMember } from '../resources/members/index.js';
import { lobbyDispatches } from '../resources/lobbies/index.js';
import type { CallLifecycle } from '../resources/calls/index.js';
import type { VoiceStateRecord } from '../storage/index.js';
import type { VoiceStateUpdatePayload } from './clientOps.js';
import { InvalidCommandError, type CommandContext, type CommandSession } from './commandContext.js';
import type { GuildState } from './guildState.js';
import { createDmCallCommand } from './dmCallCommand.js';
import { createLobbyVoiceCommand } from './lobbyVoiceCommand.js';
import { voiceStateWire } from './voiceStates.js';
import { needsServer, serverUpdate, type VoiceServers } from './voiceServer.js';

export type { VoiceServers };

/** Whether a channel of the guild's cached state is a stage channel. */
const isStage = (state: GuildState | undefined, channelId: string): boolean =>
  state?.channels.get(channelId)?.type === ChannelTypes.GUILD_STAGE_VOICE;

export function createVoiceCommand(deps: {
  voice: VoiceServers | null;
  /** DM and group-DM calls (resources/calls); null: op 4 names lobbies only. */
  calls?: CallLifecycle | null;
}) {
  const { voice } = deps;
  const dm = createDmCallCommand({ voice, calls: deps.calls ?? null });
  const { lobbyVoiceStateUpdate } = createLobbyVoiceCommand({ voice });

  async function guildVoiceStateUpdate(
    ctx: CommandContext,
    input: { session: CommandSession; d: VoiceStateUpdatePayload & { guild_id: string } },
  ) {
    const { session, d } = input;
    const guildId = d.guild_id;
    const channelId = d.channel_id;
    if (!session.guildIds.has(guildId)) throw new InvalidCommandError('unknown guild');
    const state = ctx.guild(guildId);
    const nowMs = ctx.clock.now();
    if (channelId !== null) {
      const channel = state?.channels.get(channelId);
      const bits = state?.channelPermissions(session.userId, channelId, nowMs) ?? 0n;
      if (channel === undefined || !isVoiceChannelType(channel.type)) {
        throw new InvalidCommandError('not a voice channel of the guild');
      }
      // Without CONNECT the platform leaves the user where they were.
      if ((bits & P.CONNECT) === 0n) return;
    }
    // Picked before anything is stored: a voice node that cannot be picked changes nothing.
    const endpoint =
      voice !== null && channelId !== null ? await voice.endpointFor(channelId) : null;
    const selfMute = d.self_mute;
    const selfDeaf = d.self_deaf;
    const startTimes: { id: string; time: number | null }[] = [];
    const written: { state: VoiceStateRecord | null; server: boolean } = {
      state: null,
      server: false,
    };
    const result = await ctx.storage.transaction(async (tx) => {
      await tx.guilds.lock(guildId);
      const member = await tx.members.find(guildId, session.userId);
      if (member === null) return null;
      const previous = await tx.gateway.findVoiceState(guildId, session.userId);
      if (channelId === null) {
        if (previous === null) return null;
        await tx.gateway.deleteVoiceState(guildId, session.userId);
      } else {
        const stays = previous?.channelId === channelId;
        const next: VoiceStateRecord = {
          guildId,
          userId: session.userId,
          channelId,
          sessionId: session.id,
          selfMute,
          selfDeaf,
          selfVideo: d.self_video,
          joinedAt: stays ? previous.joinedAt : nowMs,
          // A stage channel is joined as a listener; moving within it keeps the hand and role.
          suppress: stays ? previous.suppress : isStage(state, channelId),
          requestToSpeakAt: stays ? previous.requestToSpeakAt : null,
        };
        written.state = next;
        written.server = needsServer(previous, next);
        await tx.gateway.putVoiceState(next);
        if (
          previous?.channelId !== channelId &&
          (await tx.gateway.countInVoiceChannel(channelId)) === 1
        ) {
          await tx.gateway.setVoiceStartTime(channelId, nowMs);
          startTimes.push({ id: channelId, time: Math.floor(nowMs / 1000) });
        }
      }
      if (
        previous !== null &&
        previous.channelId !== channelId &&
        (await tx.gateway.countInVoiceChannel(previous.channelId)) === 0
      ) {
        await tx.gateway.setVoiceStartTime(previous.channelId, null);
        startTimes.push({ id: previous.channelId, time: null });
      }
      const user = await tx.users.findById(session.userId);
      return user === null ? null : { member, user };
    });
    if (result === null) return;
    const server =
      voice !== null && endpoint !== null && channelId !== null && written.server
        ? [
            {
              guildId,
              ...serverUpdate(
                {
                  userId: session.userId,
                  sessionId: session.id,
                  serverId: guildId,
                  guildId,
                  channelId,
                },
                { endpoint, nowMs: ctx.wireClock.now(), tokens: voice.tokens },
              ),
            },
          ]
        : [];
    ctx.events.dispatch([
      {
        type: 'VOICE_STATE_UPDATE',
        guildId,
        data: voiceStateWire(
          {
            guildId,
            channelId,
            userId: session.userId,
            sessionId: session.id,
            selfMute,
            selfDeaf,
            selfVideo: d.self_video,
            suppress: written.state?.suppress ?? false,
            requestToSpeakAt: written.state?.requestToSpeakAt ?? null,
          },
          serializeMember(result.member, result.user),
          result.member,
        ),
      },
      ...server,
      ...startTimes.map((t): Dispatch<'VOICE_CHANNEL_START_TIME_UPDATE'> => ({
        type: 'VOICE_CHANNEL_START_TIME_UPDATE',
        guildId,
        channelId: t.id,
        data: { id: t.id, guild_id: guildId, voice_start_time: t.time },
      })),
    ]);
  }

  /**
   * A gateway session ended (closed for good or not resumed in time): its voice states end, as
   * if it had sent op 4 with `channel_id: null`: its guild voice states (VOICE_STATE_UPDATE and,
   * for an emptied channel, VOICE_CHANNEL_START_TIME_UPDATE to the guild) and its lobby calls.
   */
  async function endSessionStates(ctx: CommandContext, sessionId: string) {
    const dispatches = await ctx.storage.transaction(async (tx) => {
      const out: Dispatch[] = [];
      for (const state of await tx.gateway.listVoiceStatesOfSession(sessionId)) {
        const { guildId, userId, channelId } = state;
        await tx.guilds.lock(guildId);
        // Read again under the lock: another session of the user may have taken it over.
        const current = await tx.gateway.findVoiceState(guildId, userId);
        if (current?.sessionId !== sessionId) continue;
        await tx.gateway.deleteVoiceState(guildId, userId);
        const [member, user] = await Promise.all([
          tx.members.find(guildId, userId),
          tx.users.findById(userId),
        ]);
        out.push({
          type: 'VOICE_STATE_UPDATE',
          guildId,
          data: voiceStateWire(
            { ...current, channelId: null },
            member === null || user === null ? null : serializeMember(member, user),
            member,
          ),
        });
        if ((await tx.gateway.countInVoiceChannel(channelId)) === 0) {
          await tx.gateway.setVoiceStartTime(channelId, null);
          out.push({
            type: 'VOICE_CHANNEL_START_TIME_UPDATE',
            guildId,
            channelId,
            data: { id: channelId, guild_id: guildId, voice_start_time: null },
          });
        }
      }
      for (const state of await tx.lobbies.listVoiceStatesOfSession(sessionId)) {
        await tx.lobbies.deleteVoiceState(state.lobbyId, state.userId);
        const members = (await tx.lobbies.listMembers(state.lobbyId)).map((m) => m.userId);
        out.push(
          lobbyDispatches.voiceState(
            { id: state.lobbyId, applicationId: state.applicationId },
            { userIds: [...new Set([...members, state.userId])], state, left: true },
          ),
        );
      }
      return out;
    });
    if (dispatches.length > 0) ctx.events.dispatch(dispatches);
  }

  /**
   * Op 4 with `guild_id: null`: a private channel's call (its id), else a lobby's; `channel_id`
   * null leaves the user's DM call and, from an SDK session, its lobby call.
   */
  async function callStateUpdate(
    ctx: CommandContext,
    input: { session: CommandSession; d: VoiceStateUpdatePayload },
  ) {
    const channelId = input.d.channel_id;
    if (channelId === null) {
      await dm.leave(ctx, input.session);
      if (input.session.sdk === true) await lobbyVoiceStateUpdate(ctx, input);
      return;
    }
    const record = await ctx.storage.privateChannels.find(channelId);
    if (record !== null) {
      await dm.join(ctx, { ...input, record });
      return;
    }
    await lobbyVoiceStateUpdate(ctx, input);
  }

  /** Op 4: a guild's voice channel, or (guild_id null) a private channel's or a lobby's call. */
  async function voiceStateUpdate(
    ctx: CommandContext,
    input: { session: CommandSession; d: VoiceStateUpdatePayload },
  ) {
    return input.d.guild_id === null
      ? callStateUpdate(ctx, input)
      : guildVoiceStateUpdate(ctx, {
          session: input.session,
          d: { ...input.d, guild_id: input.d.guild_id },
        });
  }

  /** A gateway session ended: its guild, lobby and DM calls end with it. */
  async function sessionEnded(ctx: CommandContext, sessionId: string) {
    await endSessionStates(ctx, sessionId);
    await dm.sessionEnded(ctx, sessionId);
  }

  return { voiceStateUpdate, sessionEnded };
}
