import { ChannelTypes } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { InviteRecord, Repositories } from '../../storage/index.js';

/** Codes the platform could have made: what a lookup accepts before touching the database. */
const CODE_PATTERN = /^[A-Za-z0-9-]{1,32}$/;

/** Whether an invite can no longer be used at `nowMs` (then it is an Unknown Invite). */
export function isExpired(invite: InviteRecord, nowMs: number): boolean {
  return invite.expiresAt !== null && invite.expiresAt <= nowMs;
}

/**
 * A guild's vanity code as an invite (docs/guild-api.md): to its rules, system or first text
 * channel, from nobody, never expiring, counting the joins it brought. Null when the code is no
 * guild's vanity code, or its guild lost the VANITY_URL feature or has no text channel.
 */
async function vanityInvite(repos: Repositories, code: string): Promise<InviteRecord | null> {
  const vanity = await repos.guildSettings.vanityByCode(code);
  const guild = vanity === null ? null : await repos.guilds.findById(vanity.guildId);
  if (vanity === null || guild?.features.includes('VANITY_URL') !== true) return null;
  const text = (await repos.channels.listByGuild(guild.id))
    .filter((c) => c.type === ChannelTypes.GUILD_TEXT)
    .sort((a, b) => a.position - b.position);
  const channelId =
    guild.rulesChannelId ?? guild.systemChannelId ?? (text[0] === undefined ? null : text[0].id);
  if (channelId === null) return null;
  return {
    code,
    guildId: guild.id,
    channelId,
    inviterId: null,
    maxAge: 0,
    maxUses: 0,
    uses: vanity.uses,
    temporary: false,
    targetType: null,
    targetUserId: null,
    targetApplicationId: null,
    roleIds: [],
    targeted: false,
    createdAt: guild.createdAt,
    expiresAt: null,
  };
}

/**
 * Loads a usable invite, or a guild's vanity code as one: a malformed, unknown or expired code
 * is 10006 Unknown Invite.
 * @throws ApiError UNKNOWN_INVITE
 */
export async function findLiveInvite(
  repos: Repositories,
  code: string,
  nowMs: number,
): Promise<InviteRecord> {
  if (!CODE_PATTERN.test(code)) throw new ApiError('UNKNOWN_INVITE');
  const invite = (await repos.invites.find(code)) ?? (await vanityInvite(repos, code));
  if (invite === null || isExpired(invite, nowMs)) throw new ApiError('UNKNOWN_INVITE');
  return invite;
}

/**
 * Counts one join through an invite: on its row, or on the guild's vanity code. Null when the
 * invite is gone or used up.
 */
export async function countInviteUse(
  repos: Repositories,
  invite: InviteRecord,
): Promise<number | null> {
  const uses = await repos.invites.addUse(invite.code);
  if (uses !== null || invite.inviterId !== null) return uses;
  const vanity = await repos.guildSettings.vanityByCode(invite.code);
  if (vanity?.guildId !== invite.guildId) return null;
  await repos.guildSettings.countVanityUse(invite.guildId);
  return vanity.uses + 1;
}
