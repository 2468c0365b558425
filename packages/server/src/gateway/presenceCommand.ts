/**
 * @module gateway/presenceCommand: op 3, a session setting its presence, and the offline presence
 * announced when a person's last session ends. The presence is stored, then announced to the
 * guilds it shows in and to the person's friends.
 */
import { withActivityFlags } from '@guildhall/protocol';
import type { PresenceUpdatePayload } from './clientOps.js';
import type { CommandContext, CommandSession } from './commandContext.js';
import type { Presence, Presences } from './presences.js';
import { friendPresenceWire, visibleActivities } from './routing.js';

/** A custom status (op 3 activity type 4). */
const CUSTOM_STATUS_TYPE = 4;

/** Op 3 and the presence a person's last session leaves behind. */
export function createPresenceCommand(deps: { presences: Presences }) {
  const { presences } = deps;

  /**
   * The guilds a presence is announced in: the session's, or for an SDK session (which joins
   * none) the user's, with their member counts for the custom status rule.
   */
  async function presenceGuilds(
    ctx: CommandContext,
    session: CommandSession,
  ): Promise<Map<string, number>> {
    if (session.sdk !== true) {
      return new Map(
        [...session.guildIds].map((id) => [id, ctx.guild(id)?.memberCount ?? 0] as const),
      );
    }
    const ids = (await ctx.storage.guilds.listForUser(session.userId)).map((g) => g.id);
    return ids.length === 0 ? new Map() : ctx.storage.guilds.memberCounts(ids);
  }

  /**
   * The applications a person's session names in its activities that exist (id → id); none for
   * an SDK or a bot session.
   */
  async function namedApplications(
    ctx: CommandContext,
    session: CommandSession,
    activities: readonly { application_id?: string | undefined }[],
  ): Promise<ReadonlyMap<string, string>> {
    const found = new Map<string, string>();
    if (session.sdk === true || session.isApp !== false) return found;
    const ids = new Set(activities.map((a) => a.application_id).filter((id) => id !== undefined));
    for (const id of ids) {
      if ((await ctx.storage.applications.findById(id)) !== null) found.set(id, id);
    }
    return found;
  }

  async function presenceUpdate(
    ctx: CommandContext,
    input: { session: CommandSession; d: PresenceUpdatePayload },
  ) {
    const { session } = input;
    const { status, since, afk } = input.d;
    const named = await namedApplications(ctx, session, input.d.activities);
    // An SDK session's activities are its token's application's; a person's own client (the web
    // client hosting an activity, `guildhall rpc` for a native app) names the application, which
    // must exist; a bot names none.
    // Each activity's flags follow from what it holds (a join secret is JOIN, …), for everyone
    // who sees it, its owner's sessions included.
    const activities = await Promise.all(
      input.d.activities.map(async (given) => {
        const activity = withActivityFlags(given);
        const rest: Record<string, unknown> = { ...activity };
        delete rest['application_id'];
        delete rest['parent_application_id'];
        // A custom status is the user's, not the game's: it names no application.
        if (activity.type === CUSTOM_STATUS_TYPE) return rest;
        const applicationId =
          session.sdk === true ? session.applicationId : named.get(activity.application_id ?? '');
        if (applicationId == null) return rest;
        // A parent application only as the operator approved it (a publisher link).
        const parent = activity.parent_application_id;
        const linked =
          parent !== undefined &&
          (await ctx.storage.provisional.findLink(parent, applicationId)) !== null;
        return {
          ...rest,
          application_id: applicationId,
          ...(linked ? { parent_application_id: parent } : {}),
        };
      }),
    );
    const privacy = await ctx.storage.gateway.profilePrivacy(session.userId);
    const shown = status === 'invisible' ? 'offline' : status;
    const clientStatus: Record<string, string> =
      shown === 'offline' ? {} : session.sdk === true ? { desktop: shown } : { web: shown };
    const presence: Presence = { status, activities, since, afk, privacy, clientStatus };
    // Stored before it is announced: a node that rebuilds a GUILD_CREATE on the dispatch reads it.
    await presences.set(session.userId, presence);
    const [guilds, friends] = await Promise.all([
      presenceGuilds(ctx, session),
      ctx.friendIds(session.userId),
    ]);
    for (const [guildId, memberCount] of guilds) {
      ctx.events.dispatch({
        type: 'PRESENCE_UPDATE',
        guildId,
        data: {
          user: { id: session.userId },
          guild_id: guildId,
          status: shown,
          activities:
            shown === 'offline' ? [] : visibleActivities(activities, { privacy, memberCount }),
          client_status: clientStatus,
        },
      });
    }
    if (friends.length > 0) {
      // Friends see every activity (custom status too), on their own subjects, without guild_id.
      ctx.events.dispatch({
        type: 'PRESENCE_UPDATE',
        guildId: null,
        userIds: friends,
        data: friendPresenceWire(session.userId, presence) ?? {
          user: { id: session.userId },
          status: 'offline',
          activities: [],
          client_status: {},
        },
      });
    }
  }

  /**
   * A person's last session ended: a presence they had set goes offline, announced as op 3
   * `offline` would be (to their guilds and friends). Nothing when none was set or it already
   * showed offline.
   */
  async function personGone(ctx: CommandContext, userId: string) {
    const presence = (await presences.get([userId])).get(userId);
    if (
      presence === undefined ||
      presence.status === 'offline' ||
      presence.status === 'invisible'
    ) {
      return;
    }
    await presenceUpdate(ctx, {
      // Read as an SDK session's: the guilds come from storage, the session being gone.
      session: { id: '', userId, intents: 0, guildIds: new Set(), sdk: true, applicationId: null },
      d: { status: 'offline', activities: [], since: null, afk: false },
    });
  }

  return { presenceUpdate, personGone };
}
