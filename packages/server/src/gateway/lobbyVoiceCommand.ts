/**
 * @module gateway/lobbyVoiceCommand: op 4 naming a lobby, a lobby's call: joining it (leaving the
 * user's call in another lobby of the game), and leaving it. gateway/voiceCommand.ts sends op 4
 * here when its channel is neither a guild's nor a private channel.
 */
import { mayAccess } from '../domain/tokenAccess.js';
import type { Dispatch } from '../events/dispatcher.js';
import { lobbyDispatches, lobbyVoiceStateWire } from '../resources/lobbies/index.js';
import type { LobbyVoiceStateRecord } from '../storage/index.js';
import type { VoiceStateUpdatePayload } from './clientOps.js';
import { InvalidCommandError, type CommandContext, type CommandSession } from './commandContext.js';
import { needsServer, serverUpdate, type VoiceServers } from './voiceServer.js';

/** Op 4 for lobby calls, with the voice nodes its joiners are sent to (null: none). */
export function createLobbyVoiceCommand(deps: { voice: VoiceServers | null }) {
  const { voice } = deps;

  /**
   * Op 4 with `guild_id: null`: the lobby call `channel_id` (a lobby id), or leaving the user's
   * call (null). Only a member's SDK session of the lobby's application, whose token may use
   * lobbies as over REST (`sdk.social_layer`), joins; anything else is an InvalidCommandError.
   * One call per user per application: joining another lobby's call leaves the one before. The members get VOICE_STATE_UPDATE (user-addressed, scoped to the
   * lobby's application); the joiner's session gets one per participant already in the call,
   * then its own, then VOICE_SERVER_UPDATE `{token, guild_id: null, channel_id, endpoint}`.
   */
  async function lobbyVoiceStateUpdate(
    ctx: CommandContext,
    input: { session: CommandSession; d: VoiceStateUpdatePayload },
  ) {
    const { session, d } = input;
    const applicationId = session.applicationId ?? null;
    if (session.sdk !== true || applicationId === null) {
      throw new InvalidCommandError('a lobby call needs an SDK session');
    }
    if (session.grant === undefined || !mayAccess(session.grant, 'lobbies')) {
      throw new InvalidCommandError('a lobby call needs a token that may use lobbies');
    }
    const lobbyId = d.channel_id;
    const nowMs = ctx.clock.now();
    /** Refuses a lobby of another game, or one the user is not a member of. */
    const checkMember = async (repos: Pick<CommandContext['storage'], 'lobbies'>, id: string) => {
      const lobby = await repos.lobbies.findById(id);
      const member = lobby === null ? null : await repos.lobbies.findMember(id, session.userId);
      if (lobby?.applicationId !== applicationId || member === null) {
        throw new InvalidCommandError('not a member of the lobby');
      }
      return lobby;
    };
    // Checked before a voice node is picked (a claim is for real calls only), and again below.
    if (lobbyId !== null) await checkMember(ctx.storage, lobbyId);
    const endpoint = voice !== null && lobbyId !== null ? await voice.endpointFor(lobbyId) : null;
    const outcome = await ctx.storage.transaction(async (tx) => {
      const previous = await tx.lobbies.findVoiceStateOfUser(session.userId, applicationId);
      const dispatches: Dispatch[] = [];
      /** Ends the user's call in its lobby: the leave goes to its members and the user. */
      const leave = async (state: LobbyVoiceStateRecord) => {
        await tx.lobbies.deleteVoiceState(state.lobbyId, state.userId);
        const members = (await tx.lobbies.listMembers(state.lobbyId)).map((m) => m.userId);
        dispatches.push(
          lobbyDispatches.voiceState(
            { id: state.lobbyId, applicationId },
            { userIds: [...new Set([...members, state.userId])], state, left: true },
          ),
        );
      };
      if (lobbyId === null) {
        if (previous !== null) await leave(previous);
        return { dispatches, joined: null };
      }
      await tx.lobbies.lock(lobbyId);
      const lobby = await checkMember(tx, lobbyId);
      const participants = (await tx.lobbies.listVoiceStates(lobbyId)).filter(
        (p) => p.userId !== session.userId,
      );
      if (voice?.maxMembers !== undefined && participants.length >= voice.maxMembers) {
        return { dispatches, joined: null };
      }
      const stays = previous?.lobbyId === lobbyId;
      if (previous !== null && !stays) await leave(previous);
      const next: LobbyVoiceStateRecord = {
        lobbyId,
        userId: session.userId,
        applicationId,
        sessionId: session.id,
        selfMute: d.self_mute,
        selfDeaf: d.self_deaf,
        joinedAt: stays ? previous.joinedAt : nowMs,
      };
      await tx.lobbies.putVoiceState(next);
      const members = (await tx.lobbies.listMembers(lobbyId)).map((m) => m.userId);
      dispatches.push(lobbyDispatches.voiceState(lobby, { userIds: members, state: next }));
      const server = needsServer(
        previous !== null && stays ? { ...previous, channelId: lobbyId, selfVideo: false } : null,
        { ...next, channelId: lobbyId, selfVideo: false },
      );
      return { dispatches, joined: server ? { participants } : null };
    });
    // Who is in the call already, to the joiner's session first (its own state follows).
    for (const p of outcome.joined?.participants ?? []) {
      ctx.reply('VOICE_STATE_UPDATE', lobbyVoiceStateWire(p, p.lobbyId));
    }
    const server =
      voice !== null && endpoint !== null && lobbyId !== null && outcome.joined !== null
        ? [
            {
              guildId: null,
              userIds: [session.userId],
              applicationId,
              ...serverUpdate(
                {
                  userId: session.userId,
                  sessionId: session.id,
                  serverId: lobbyId,
                  guildId: null,
                  channelId: lobbyId,
                },
                { endpoint, nowMs: ctx.wireClock.now(), tokens: voice.tokens },
              ),
            },
          ]
        : [];
    ctx.events.dispatch([...outcome.dispatches, ...server]);
  }

  return { lobbyVoiceStateUpdate };
}
