/**
 * @module resources/guildSettings/welcome: what a new member is shown: the welcome screen,
 * onboarding (its rules in ./onboarding.ts) and the new-member welcome (home settings).
 */
import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import { diffChanges, recordAudit, recordChanges } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import {
  auditPrompts,
  checkIn,
  checkOnboardingRequirements,
  onboardingWire,
  promptsOf,
} from './onboarding.js';
import {
  Onboarding,
  WelcomeScreen,
  type NewMemberWelcomeInput,
  type OnboardingInput,
} from './schemas.js';

import {
  readSetting,
  welcomeWire,
  type SettingsDocuments,
  type SettingsRequest,
} from './documents.js';

export function createWelcomeSettings(deps: ServiceDeps, documents: SettingsDocuments) {
  const { storage, clock, ids } = deps;
  const { accessFor, put, managing, channelIds } = documents;

  return {
    /**
     * GET /guilds/{id}/welcome-screen: anyone in the guild once it is enabled; before that,
     * MANAGE_GUILD. A guild that never set one has none (10069).
     */
    async getWelcomeScreen(principal: Principal, guildId: string) {
      const access = await accessFor(storage, principal, guildId);
      const stored = await storage.guildSettings.get(access.guild.id, 'welcome_screen');
      const screen = WelcomeScreen.parse(stored ?? {});
      if (!screen.enabled) access.require(P.MANAGE_GUILD);
      if (stored === null) throw new ApiError('UNKNOWN_GUILD_WELCOME_SCREEN');
      return welcomeWire(screen);
    },

    async modifyWelcomeScreen(
      principal: Principal,
      request: SettingsRequest,
      input: {
        enabled?: boolean | null;
        description?: string | null;
        welcome_channels?:
          | {
              channel_id: string;
              description: string;
              emoji_id?: string | null | undefined;
              emoji_name?: string | null | undefined;
            }[]
          | null;
      },
    ) {
      return storage.transaction(async (tx) => {
        const access = await managing(tx, principal, request.guildId);
        const guildId = access.guild.id;
        const before = await readSetting(
          tx,
          { guildId: guildId, name: 'welcome_screen' },
          WelcomeScreen,
        );
        let welcome = before.welcome_channels;
        if (input.welcome_channels !== undefined) {
          const channels = input.welcome_channels ?? [];
          checkIn(
            ['welcome_channels'],
            await channelIds(tx, access),
            channels.map((c) => c.channel_id),
          );
          welcome = channels.map((c) => ({
            channel_id: c.channel_id,
            description: c.description,
            emoji_id: c.emoji_id ?? null,
            emoji_name: c.emoji_name ?? null,
          }));
        }
        const after: WelcomeScreen = {
          enabled: input.enabled ?? before.enabled,
          description: input.description === undefined ? before.description : input.description,
          welcome_channels: welcome,
        };
        await put(tx, { guildId, name: 'welcome_screen' }, after);
        await recordChanges(tx, ids, {
          guildId,
          userId: principal.user.id,
          targetId: guildId,
          actionType: AuditLogActions.GUILD_UPDATE,
          changes: diffChanges(
            { welcome_screen_enabled: before.enabled },
            { welcome_screen_enabled: after.enabled },
          ),
          reason: request.reason,
        });
        return welcomeWire(after);
      });
    },

    /** GET /guilds/{id}/onboarding: what every member is shown. */
    async getOnboarding(principal: Principal, guildId: string) {
      const access = await accessFor(storage, principal, guildId);
      return onboardingWire(
        access.guild.id,
        await readSetting(storage, { guildId: access.guild.id, name: 'onboarding' }, Onboarding),
      );
    },

    /**
     * PUT /guilds/{id}/onboarding (MANAGE_GUILD and MANAGE_ROLES): the fields given replace the
     * stored ones; enabled onboarding must meet its channel requirements (350000).
     */
    async putOnboarding(principal: Principal, request: SettingsRequest, input: OnboardingInput) {
      return storage.transaction(async (tx) => {
        const access = await managing(tx, principal, request.guildId);
        access.require(P.MANAGE_ROLES);
        const guildId = access.guild.id;
        const stored = await tx.guildSettings.get(guildId, 'onboarding');
        const before = Onboarding.parse(stored ?? {});
        const known = {
          channels: await channelIds(tx, access),
          roles: new Set(access.roles.map((r) => r.id)),
        };
        if (input.default_channel_ids != null) {
          checkIn(['default_channel_ids'], known.channels, input.default_channel_ids);
        }
        const after: Onboarding = {
          enabled: input.enabled ?? before.enabled,
          mode: input.mode ?? before.mode,
          default_channel_ids: input.default_channel_ids ?? before.default_channel_ids,
          prompts: input.prompts == null ? before.prompts : promptsOf(input.prompts, known, ids),
        };
        if (after.enabled) {
          await checkOnboardingRequirements(tx, access, { onboarding: after, now: clock.now() });
        }
        await put(tx, { guildId, name: 'onboarding' }, after);
        const entry = { guildId, userId: principal.user.id, reason: request.reason };
        const settings = (o: Onboarding) => ({
          enabled: o.enabled,
          mode: o.mode,
          default_channel_ids: o.default_channel_ids,
        });
        if (stored === null) {
          await recordAudit(tx, ids, {
            ...entry,
            targetId: guildId,
            actionType: AuditLogActions.ONBOARDING_CREATE,
            changes: diffChanges({}, settings(after)),
          });
        } else {
          await recordChanges(tx, ids, {
            ...entry,
            targetId: guildId,
            actionType: AuditLogActions.ONBOARDING_UPDATE,
            changes: diffChanges(settings(before), settings(after)),
          });
        }
        await auditPrompts({ tx, ids }, entry, { before: before.prompts, after: after.prompts });
        return onboardingWire(guildId, after);
      });
    },

    /** GET /guilds/{id}/new-member-welcome: the guild's home settings, or nothing (204). */
    async getNewMemberWelcome(principal: Principal, guildId: string) {
      const access = await accessFor(storage, principal, guildId);
      const stored = await storage.guildSettings.get(access.guild.id, 'new_member_welcome');
      return stored === null ? null : { guild_id: access.guild.id, ...stored };
    },

    /** PUT /guilds/{id}/new-member-welcome (the client's route; MANAGE_GUILD). */
    async putNewMemberWelcome(
      principal: Principal,
      request: SettingsRequest,
      input: NewMemberWelcomeInput,
    ) {
      return storage.transaction(async (tx) => {
        const access = await managing(tx, principal, request.guildId);
        const guildId = access.guild.id;
        const known = await channelIds(tx, access);
        const emoji = (
          e:
            | { id?: string | null; name?: string | null; animated?: boolean | null }
            | null
            | undefined,
        ) =>
          e == null
            ? {}
            : { emoji: { id: e.id ?? null, name: e.name ?? null, animated: e.animated ?? false } };
        const actions = input.new_member_actions ?? [];
        const resources = input.resource_channels ?? [];
        checkIn(
          ['new_member_actions'],
          known,
          actions.map((a) => a.channel_id),
        );
        checkIn(
          ['resource_channels'],
          known,
          resources.map((r) => r.channel_id),
        );
        const existed = (await tx.guildSettings.get(guildId, 'new_member_welcome')) !== null;
        const value = {
          enabled: input.enabled ?? false,
          ...(input.welcome_message == null ? {} : { welcome_message: input.welcome_message }),
          new_member_actions: actions.map(({ emoji: e, ...rest }) => ({ ...rest, ...emoji(e) })),
          resource_channels: resources.map(({ emoji: e, ...rest }) => ({ ...rest, ...emoji(e) })),
        };
        await put(tx, { guildId, name: 'new_member_welcome' }, value);
        await recordAudit(tx, ids, {
          guildId,
          userId: principal.user.id,
          targetId: guildId,
          actionType: existed
            ? AuditLogActions.HOME_SETTINGS_UPDATE
            : AuditLogActions.HOME_SETTINGS_CREATE,
          reason: request.reason,
        });
        return { guild_id: guildId, ...value };
      });
    },
  };
}
