/**
 * @module rpc/commandsActivity: activity join requests through the local client (docs/rpc.md,
 * Join requests). A game asks to join a friend's party with SEND_ACTIVITY_JOIN_REQUEST (the
 * platform's join-request route, as the person); the host's game hears ACTIVITY_JOIN_REQUEST
 * and answers with SEND_ACTIVITY_JOIN_INVITE (a DM activity invite to the party it published
 * with SET_ACTIVITY) or CLOSE_ACTIVITY_REQUEST (the request is dropped). None needs
 * AUTHENTICATE: they act only on the game's own activity, as SET_ACTIVITY does.
 */
import { RpcErrorCodes } from '@guildhall/protocol';
import { USER, idArg, type CommandContext, type CommandSpec, type Handler } from './commandArgs.js';
import { PlatformRequestError } from './platformApi.js';
import { RpcError } from './types.js';

/** Activity invite message type 1: JOIN. */
const JOIN_INVITE = 1;

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** A platform refusal as RPC's error, with the platform's message. */
async function refusedAs<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (err) {
    if (err instanceof PlatformRequestError && err.status < 500) {
      const code = (err.body as { code?: unknown } | null)?.code;
      throw new RpcError(
        RpcErrorCodes.INVALID_PAYLOAD,
        `${err.detail}${typeof code === 'number' ? ` (${code})` : ''}`,
      );
    }
    throw err;
  }
}

/** The party of this connection's activity that others may join. */
function ownParty(ctx: CommandContext): string {
  const activity = ctx.activity();
  const party = record(activity?.['party'])?.['id'];
  if (typeof party !== 'string' || typeof record(activity?.['secrets'])?.['join'] !== 'string') {
    throw new RpcError(
      RpcErrorCodes.INVALID_PAYLOAD,
      'The activity has no party to join: SET_ACTIVITY with party.id and secrets.join first.',
    );
  }
  return party;
}

function pending(ctx: CommandContext, userId: string) {
  const request = ctx.joinRequests.get(userId);
  if (request === undefined) {
    throw new RpcError(RpcErrorCodes.INVALID_PAYLOAD, `No join request from user ${userId}.`);
  }
  return request;
}

/** SEND_ACTIVITY_JOIN_REQUEST `{user_id}`: asks to join that person's party in this game. */
const sendJoinRequest: Handler = async (ctx, args) => {
  const hostId = idArg(args, USER);
  const party = ctx.local
    .activitiesOf(hostId)
    .map((a) => ({ app: a['application_id'], id: record(a['party'])?.['id'] }))
    .find((a) => a.app === ctx.clientId && typeof a.id === 'string');
  if (party === undefined) {
    throw new RpcError(
      RpcErrorCodes.INVALID_PAYLOAD,
      `User ${hostId} is in no party of this game that the user can see.`,
    );
  }
  await refusedAs(
    ctx.api.post(`/users/@me/activities/${encodeURIComponent(String(party.id))}/join-request`, {
      user_id: hostId,
    }),
  );
  return { data: null };
};

/** SEND_ACTIVITY_JOIN_INVITE `{user_id}`: accepts a join request with an invite to the party. */
const sendJoinInvite: Handler = async (ctx, args) => {
  const userId = idArg(args, USER);
  pending(ctx, userId);
  const partyId = ownParty(ctx);
  const dm = await refusedAs(
    ctx.api.post<{ id: string }>('/users/@me/channels', { recipient_id: userId }),
  );
  await refusedAs(
    ctx.api.post(`/channels/${dm.id}/messages`, {
      content: '',
      activity: { type: JOIN_INVITE, party_id: partyId },
      application_id: ctx.clientId,
    }),
  );
  ctx.joinRequests.delete(userId);
  return { data: null };
};

/** CLOSE_ACTIVITY_REQUEST `{user_id}`: declines (drops) a join request. */
const closeRequest: Handler = (ctx, args) => {
  const userId = idArg(args, USER);
  pending(ctx, userId);
  ctx.joinRequests.delete(userId);
  return Promise.resolve({ data: null });
};

export const ACTIVITY_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  SEND_ACTIVITY_JOIN_REQUEST: { run: sendJoinRequest },
  SEND_ACTIVITY_JOIN_INVITE: { run: sendJoinInvite },
  CLOSE_ACTIVITY_REQUEST: { run: closeRequest },
  // The name discord-rpc sends (its constants come from the platform's client).
  CLOSE_ACTIVITY_JOIN_REQUEST: { run: closeRequest },
};
