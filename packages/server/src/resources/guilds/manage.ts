import { AuditLogActions, ChannelTypes, PermissionFlags as P } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { GuildPatch, GuildRecord, Repositories } from '../../storage/index.js';
import { recordChanges, diffChanges } from '../auditLog/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { ServiceDeps } from '../deps.js';
import { guildDispatches } from './dispatch.js';
import { storeImage } from '../imageUploads.js';
import { accessLoader } from '../access/index.js';
import { GUILD_IMAGE_KINDS, guildImageKey } from './imageKinds.js';
import { freeBlobsAfterCommit, guildBlobKeys, imageKeys } from '../../blobs/lifecycle.js';
import type { ModifyGuildInput } from './schemas.js';
import { auditedGuild, viewGuild } from './serialize.js';

/** The only features a guild may toggle itself, and only its owner may (spec, Guild feature). */
export const OWNER_TOGGLED_FEATURES: ReadonlySet<string> = new Set([
  'ENHANCED_ROLE_COLORS',
  'PRUNE_REQUIRES_ADMIN',
]);

type ChannelField =
  'afk_channel_id' | 'system_channel_id' | 'rules_channel_id' | 'public_updates_channel_id';

/** Which channel type each channel setting takes: AFK a voice channel, the others text. */
const CHANNEL_SETTINGS: Record<ChannelField, { key: keyof GuildPatch; type: number }> = {
  afk_channel_id: { key: 'afkChannelId', type: ChannelTypes.GUILD_VOICE },
  system_channel_id: { key: 'systemChannelId', type: ChannelTypes.GUILD_TEXT },
  rules_channel_id: { key: 'rulesChannelId', type: ChannelTypes.GUILD_TEXT },
  public_updates_channel_id: { key: 'publicUpdatesChannelId', type: ChannelTypes.GUILD_TEXT },
};

/** The features after a PATCH, or throws: unknown toggles are 50035, non-owners 50013. */
function nextFeatures(guild: GuildRecord, requested: readonly string[], isOwner: boolean) {
  const current = new Set(guild.features);
  const wanted = new Set(requested);
  const toggled = [...new Set([...current, ...wanted])].filter(
    (f) => current.has(f) !== wanted.has(f),
  );
  if (toggled.length === 0) return null;
  for (const feature of toggled) {
    if (!OWNER_TOGGLED_FEATURES.has(feature)) {
      throw invalidField(['features'], 'GUILD_FEATURE_INVALID', `${feature} cannot be changed.`);
    }
  }
  if (!isOwner) throw new ApiError('MISSING_PERMISSIONS');
  return [...wanted];
}

async function channelSettings(repos: Repositories, guildId: string, input: ModifyGuildInput) {
  const patch: GuildPatch = {};
  for (const [field, rule] of Object.entries(CHANNEL_SETTINGS) as [
    ChannelField,
    (typeof CHANNEL_SETTINGS)[ChannelField],
  ][]) {
    const value = input[field];
    if (value === undefined) continue;
    if (value !== null) {
      const channel = await repos.channels.findById(value);
      if (channel?.guildId !== guildId || channel.type !== rule.type) {
        throw invalidField([field], 'CHANNEL_INVALID', 'Not a valid channel of this guild.');
      }
    }
    Object.assign(patch, { [rule.key]: value });
  }
  return patch;
}

/** GET, PATCH and DELETE /guilds/{id}. */
export function createGuildManageService(deps: ServiceDeps) {
  const { storage, clock, blobs, ids } = deps;
  const accessOf = accessLoader(clock);

  return {
    /** GET /guilds/{id}; with_counts adds approximate member and presence counts. */
    async get(principal: Principal, guildId: string, withCounts: boolean) {
      const access = await accessOf(storage, principal, guildId);
      const wire = await viewGuild(storage, access.guild);
      if (!withCounts) return wire;
      const counts = await storage.guilds.memberCounts([access.guild.id]);
      return {
        ...wire,
        approximate_member_count: counts.get(access.guild.id) ?? 0,
        // Presences come with the gateway; nobody is online over HTTP alone.
        approximate_presence_count: 0,
      };
    },

    /** PATCH /guilds/{id}: MANAGE_GUILD; features only by the owner. One GUILD_UPDATE entry. */
    async modify(
      principal: Principal,
      guildId: string,
      input: ModifyGuildInput & { reason: string | null },
    ) {
      // Checked before images are stored, so a refused caller leaves no blobs behind.
      const precheck = await accessOf(storage, principal, guildId);
      precheck.require(P.MANAGE_GUILD);
      const images: GuildPatch = {};
      for (const field of ['icon', 'banner', 'splash'] as const) {
        const value = input[field];
        if (value === undefined) continue;
        const keyOf = guildImageKey(field, precheck.guild.id);
        images[field] = await storeImage(blobs, { field, value }, keyOf);
      }
      return storage.transaction(async (tx) => {
        const access = await accessOf(tx, principal, guildId);
        access.require(P.MANAGE_GUILD);
        const { guild } = access;
        const patch: GuildPatch = { ...images, ...(await channelSettings(tx, guild.id, input)) };
        if (input.name !== undefined) patch.name = input.name;
        if (input.description !== undefined) patch.description = input.description;
        if (input.verification_level != null) patch.verificationLevel = input.verification_level;
        if (input.default_message_notifications != null) {
          patch.defaultMessageNotifications = input.default_message_notifications;
        }
        if (input.explicit_content_filter != null) {
          patch.explicitContentFilter = input.explicit_content_filter;
        }
        if (input.afk_timeout != null) patch.afkTimeout = input.afk_timeout;
        if (input.system_channel_flags != null)
          patch.systemChannelFlags = input.system_channel_flags;
        if (input.preferred_locale != null) patch.preferredLocale = input.preferred_locale;
        if (input.premium_progress_bar_enabled != null) {
          patch.premiumProgressBarEnabled = input.premium_progress_bar_enabled;
        }
        if (input.features != null) {
          const features = nextFeatures(guild, input.features, access.isOwner);
          if (features !== null) patch.features = features;
        }
        const updated = (await tx.guilds.update(guild.id, patch)) ?? guild;
        freeBlobsAfterCommit(
          tx,
          blobs,
          (['icon', 'banner', 'splash'] as const).flatMap((field) =>
            images[field] === undefined
              ? []
              : imageKeys(`${GUILD_IMAGE_KINDS[field]}/${guild.id}`, guild[field]),
          ),
        );
        const changes = diffChanges(auditedGuild(guild), auditedGuild(updated));
        const wire = await viewGuild(tx, updated);
        if (changes.length > 0) afterCommit(tx, guildDispatches.guildUpdate(wire));
        await recordChanges(tx, ids, {
          guildId: guild.id,
          userId: principal.user.id,
          targetId: guild.id,
          actionType: AuditLogActions.GUILD_UPDATE,
          changes,
          reason: input.reason,
        });
        return wire;
      });
    },

    /** DELETE /guilds/{id}: the owner only; everything in the guild goes with it. */
    async delete(principal: Principal, guildId: string): Promise<void> {
      await storage.transaction(async (tx) => {
        const access = await accessOf(tx, principal, guildId);
        if (!access.isOwner) throw new ApiError('MISSING_PERMISSIONS');
        const freed = await guildBlobKeys(tx, access.guild.id);
        await tx.guilds.delete(access.guild.id);
        freeBlobsAfterCommit(tx, blobs, freed);
        afterCommit(tx, guildDispatches.guildDelete(access.guild.id));
      });
    },
  };
}

export type GuildManageService = ReturnType<typeof createGuildManageService>;
