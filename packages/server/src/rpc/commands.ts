/**
 * @module rpc/commands: the RPC commands the daemon answers (docs/rpc.md, Commands), each a
 * function of the connection's context and the command's `args`. A command fails by throwing an
 * {@link RpcError}; the connection turns it into the `evt: "ERROR"` answer. Commands that read
 * the person's guilds and channels need an AUTHENTICATE with the `rpc` scope first (4006).
 */
import { RpcErrorCodes, withActivityFlags } from '@guildhall/protocol';
import { Activity, dropEmpty } from '../gateway/clientOps.js';
import {
  CHANNEL,
  GUILD,
  iconUrl,
  idArg,
  orInvalid,
  readChannel,
  readGuild,
  requireAuth,
  rpcChannel,
  stringArg,
  type Args,
  type CommandContext,
  type CommandResult,
  type CommandSpec,
  type Handler,
  type WireChannel,
  type WireGuild,
} from './commandArgs.js';
import { ACTIVITY_COMMANDS } from './commandsActivity.js';
import { VOICE_COMMANDS } from './commandsVoice.js';
import { PlatformRequestError } from './platformApi.js';
import { subscribe, unsubscribe } from './subscriptions.js';
import { RpcError, type RpcApplication, type RpcUser } from './types.js';

export type { CommandContext, CommandResult, RpcAuth } from './commandArgs.js';

/** Activity type 4, a custom status: the person's own, never an app's. */
const CUSTOM_STATUS_TYPE = 4;

/** Why a known platform command is refused, for the commands Guildhall's client has no part for. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  SET_CERTIFIED_DEVICES: 'the daemon has no audio devices',
  SET_USER_VOICE_SETTINGS: 'the daemon plays no audio to set a user’s volume in',
  CAPTURE_SHORTCUT: 'the daemon reads no keyboard',
};

// ── Rich presence ───────────────────────────────────────────────────────────────────────────

/**
 * SET_ACTIVITY `{pid, activity}`: the activity as op 3 takes it (its rules: gateway/clientOps.ts),
 * named after the application when it has no name, with the client's application id and the
 * flags its members make (JOIN for a join secret, …). Without an activity it clears the
 * connection's.
 */
const setActivity: Handler = (ctx, args) => {
  const pid = args['pid'];
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid < 0) {
    throw new RpcError(RpcErrorCodes.INVALID_PAYLOAD, 'args.pid must be the process id.');
  }
  const given = args['activity'];
  if (given === undefined || given === null) {
    ctx.setActivity(null);
    return Promise.resolve({ data: null });
  }
  if (typeof given !== 'object' || Array.isArray(given)) {
    throw new RpcError(RpcErrorCodes.INVALID_PAYLOAD, 'args.activity must be an object.');
  }
  const raw = dropEmpty(given) as Record<string, unknown>;
  delete raw['application_id'];
  const parsed = Activity.safeParse({ type: 0, ...raw, name: raw['name'] ?? ctx.application.name });
  if (!parsed.success || parsed.data.type === CUSTOM_STATUS_TYPE) {
    const field = parsed.success ? 'type' : (parsed.error.issues[0]?.path.join('.') ?? '');
    throw new RpcError(
      RpcErrorCodes.INVALID_PAYLOAD,
      `args.activity is not a valid activity${field === '' ? '' : ` (${field})`}.`,
    );
  }
  // Its flags as everyone will see them: from its secrets, instance and party (as op 3 sets them).
  const activity = withActivityFlags({ ...parsed.data, application_id: ctx.clientId });
  ctx.setActivity(activity);
  return Promise.resolve({ data: activity });
};

// ── Authorization ───────────────────────────────────────────────────────────────────────────

interface LocalAuthorizeInfo {
  application: RpcApplication;
  scopes: string[];
  authorized: boolean;
}

function scopesArg(args: Args): string[] {
  const given = args['scopes'];
  const scopes = typeof given === 'string' ? given.split(' ') : given;
  if (
    !Array.isArray(scopes) ||
    scopes.length === 0 ||
    !scopes.every((s): s is string => typeof s === 'string' && s !== '')
  ) {
    throw new RpcError(RpcErrorCodes.INVALID_PAYLOAD, 'args.scopes must be a list of scopes.');
  }
  return scopes;
}

/** The optional members of AUTHORIZE passed on to the local authorize route as they are. */
const PASSED_AUTHORIZE_ARGS = ['state', 'code_challenge', 'code_challenge_method'] as const;

/** A platform OAuth refusal as RPC's OAUTH2_ERROR, with the platform's reason. */
async function oauth<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (err) {
    if (err instanceof PlatformRequestError && err.status < 500) {
      throw new RpcError(
        RpcErrorCodes.OAUTH2_ERROR,
        `${err.oauthError ?? 'oauth2_error'}: ${err.detail}`,
      );
    }
    throw err;
  }
}

/**
 * AUTHORIZE `{client_id, scopes, prompt?, state?, code_challenge?…}`: the person's consent (not
 * asked again when an authorization they gave covers the scopes), then a code from the local
 * authorize route, which the app's backend exchanges at `/oauth2/token`.
 */
const authorize: Handler = async (ctx, args) => {
  const clientId = args['client_id'] ?? ctx.clientId;
  if (clientId !== ctx.clientId) {
    throw new RpcError(
      RpcErrorCodes.INVALID_CLIENTID,
      'args.client_id must be the client id of the handshake.',
    );
  }
  const params: Record<string, string> = {
    client_id: ctx.clientId,
    scope: scopesArg(args).join(' '),
    response_type: 'code',
  };
  for (const name of PASSED_AUTHORIZE_ARGS) {
    const value = args[name];
    if (typeof value === 'string') params[name] = value;
  }
  const info = await oauth(ctx.api.get<LocalAuthorizeInfo>('/oauth2/authorize/local', params));
  let allow = info.authorized;
  if (!allow && args['prompt'] !== 'none') {
    allow = await ctx.consent({ application: info.application, scopes: info.scopes });
  }
  if (!allow) {
    throw new RpcError(
      RpcErrorCodes.OAUTH2_ERROR,
      args['prompt'] === 'none'
        ? 'access_denied: the user has not authorized this application (prompt=none).'
        : 'access_denied: the user denied the request.',
    );
  }
  const { code } = await oauth(
    ctx.api.post<{ code: string }>('/oauth2/authorize/local', { ...params, authorize: 'true' }),
  );
  return { data: { code } };
};

interface OAuthMe {
  application: RpcApplication & Record<string, unknown>;
  scopes: string[];
  expires: string;
  user?: RpcUser;
}

/**
 * AUTHENTICATE `{access_token}`: the token must be this application's, for this person; the
 * answer is `/oauth2/@me`'s `{user, scopes, expires, application}` and the commands that need
 * authentication work from then on.
 */
const authenticate: Handler = async (ctx, args) => {
  const token = stringArg(args, 'access_token');
  let me: OAuthMe;
  try {
    me = await ctx.api.getAsBearer<OAuthMe>('/oauth2/@me', token);
  } catch (err) {
    if (err instanceof PlatformRequestError && err.status === 401) {
      throw new RpcError(RpcErrorCodes.INVALID_TOKEN, 'Invalid access token.');
    }
    throw err;
  }
  if (me.application.id !== ctx.clientId) {
    throw new RpcError(RpcErrorCodes.INVALID_TOKEN, 'The access token is for another application.');
  }
  if (me.user?.id !== ctx.user.id) {
    throw new RpcError(RpcErrorCodes.INVALID_USER, 'The access token is for another user.');
  }
  ctx.setAuth({ scopes: me.scopes, accessToken: token });
  return {
    data: {
      user: me.user,
      scopes: me.scopes,
      expires: me.expires,
      application: me.application,
      access_token: token,
    },
  };
};

// ── Guilds and channels ─────────────────────────────────────────────────────────────────────

const getGuilds: Handler = async (ctx) => {
  const guilds = await ctx.api.get<WireGuild[]>('/users/@me/guilds');
  return {
    data: { guilds: guilds.map((g) => ({ id: g.id, name: g.name, icon_url: iconUrl(ctx, g) })) },
  };
};

const getGuild: Handler = async (ctx, args) => {
  const guild = await readGuild(ctx, args);
  return { data: { id: guild.id, name: guild.name, icon_url: iconUrl(ctx, guild), members: [] } };
};

const getChannels: Handler = async (ctx, args) => {
  const id = idArg(args, GUILD);
  const channels = await orInvalid(ctx.api.get<WireChannel[]>(`/guilds/${id}/channels`), GUILD);
  return { data: { channels: channels.map((c) => ({ id: c.id, name: c.name, type: c.type })) } };
};

const getChannel: Handler = async (ctx, args) => {
  const channel = await readChannel(ctx, idArg(args, CHANNEL));
  return { data: rpcChannel(ctx, channel) };
};

const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  SET_ACTIVITY: { run: setActivity },
  AUTHORIZE: { run: authorize },
  AUTHENTICATE: { run: authenticate },
  GET_GUILDS: { scope: 'rpc', run: getGuilds },
  GET_GUILD: { scope: 'rpc', run: getGuild },
  GET_CHANNELS: { scope: 'rpc', run: getChannels },
  GET_CHANNEL: { scope: 'rpc', run: getChannel },
  // Each event says what it needs (rpc/subscriptions.ts).
  SUBSCRIBE: { run: subscribe },
  UNSUBSCRIBE: { run: unsubscribe },
  ...VOICE_COMMANDS,
  ...ACTIVITY_COMMANDS,
};

/** The commands the daemon answers, for the docs' table and the tests. */
export const SUPPORTED_COMMANDS = Object.keys(COMMANDS);

/** Runs one command; throws an {@link RpcError} for every refusal. */
export async function runCommand(
  ctx: CommandContext,
  command: { cmd: string; args: Args; evt: string | null },
): Promise<CommandResult> {
  const { cmd, args, evt } = command;
  const spec = COMMANDS[cmd];
  if (spec === undefined) {
    const why = UNSUPPORTED[cmd];
    throw new RpcError(
      RpcErrorCodes.INVALID_COMMAND,
      why === undefined ? `Unknown command ${cmd}.` : `${cmd} is not supported: ${why}.`,
    );
  }
  if (spec.scope !== undefined) await requireAuth(ctx, cmd, spec.scope);
  return spec.run(ctx, args, evt);
}
