/**
 * @module resources/guildSettings/settings: the settings documents of a guild: widget settings,
 * welcome screen, onboarding, the new-member welcome (home settings), incident actions and the
 * vanity URL. Each is read and written whole, as JSON in `guild_settings` (vanity codes in their
 * own table, unique across guilds). The onboarding document's rules are in ./onboarding.ts.
 */
import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import type { z } from 'zod';
import { ApiError, invalidField } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import {
  StorageConflictError,
  type GuildSettingName,
  type Repositories,
} from '../../storage/index.js';
import { accessLoader, type GuildAccess } from '../access/index.js';
import { diffChanges, recordAudit, recordChanges } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import { viewGuild, guildDispatches } from '../guilds/index.js';
import {
  auditPrompts,
  checkIn,
  checkOnboardingRequirements,
  onboardingWire,
  promptsOf,
} from './onboarding.js';
import {
  IncidentActions,
  Onboarding,
  SETTINGS_LIMITS as L,
  WelcomeScreen,
  WidgetSettings,
  type NewMemberWelcomeInput,
  type OnboardingInput,
} from './schemas.js';
import { HOUR_MS } from '../../domain/time.js';

/** A guild request with its audit log reason. */
export interface SettingsRequest {
  guildId: string;
  reason: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Reads a stored document through its schema (defaults for what it lacks). */
export async function readSetting<S extends z.ZodType>(
  repos: Repositories,
  key: { guildId: string; name: GuildSettingName },
  schema: S,
): Promise<z.infer<S>> {
  const stored = await repos.guildSettings.get(key.guildId, key.name);
  const parsed = schema.safeParse(stored ?? {});
  return parsed.success ? parsed.data : schema.parse({});
}

export function createGuildSettingsService(deps: ServiceDeps) {
  const { storage, clock, ids } = deps;
  const accessFor = accessLoader(clock);

  const put = (tx: Repositories, key: { guildId: string; name: GuildSettingName }, value: object) =>
    tx.guildSettings.put({ ...key, value: { ...value }, updatedAt: clock.now() });

  const managing = async (tx: Repositories, principal: Principal, guildId: string) => {
    const access = await accessFor(tx, principal, guildId);
    access.require(P.MANAGE_GUILD);
    return access;
  };

  const channelIds = async (tx: Repositories, access: GuildAccess) =>
    new Set((await tx.channels.listByGuild(access.guild.id)).map((c) => c.id));

  const widgetWire = (widget: WidgetSettings) => ({
    enabled: widget.enabled,
    channel_id: widget.channel_id,
  });

  const welcomeWire = (screen: WelcomeScreen) => ({
    description: screen.description,
    welcome_channels: screen.welcome_channels,
  });

  const incidentsWire = (incidents: IncidentActions) => ({
    invites_disabled_until: iso(incidents.invites_disabled_until),
    dms_disabled_until: iso(incidents.dms_disabled_until),
  });

  return {
    widgetWire,

    async getWidget(principal: Principal, guildId: string) {
      const access = await managing(storage, principal, guildId);
      return widgetWire(
        await readSetting(storage, { guildId: access.guild.id, name: 'widget' }, WidgetSettings),
      );
    },

    /** PATCH /guilds/{id}/widget: GUILD_UPDATE with the widget's fields, audited as one. */
    async modifyWidget(
      principal: Principal,
      request: SettingsRequest,
      input: { enabled?: boolean | null; channel_id?: string | null },
    ) {
      return storage.transaction(async (tx) => {
        const access = await managing(tx, principal, request.guildId);
        const guildId = access.guild.id;
        const before = await readSetting(tx, { guildId: guildId, name: 'widget' }, WidgetSettings);
        const channelId = input.channel_id === undefined ? before.channel_id : input.channel_id;
        if (channelId !== null && !(await channelIds(tx, access)).has(channelId)) {
          throw invalidField(['channel_id'], 'BASE_TYPE_INVALID', 'Unknown channel.');
        }
        const after = { enabled: input.enabled ?? before.enabled, channel_id: channelId };
        await put(tx, { guildId, name: 'widget' }, after);
        const changes = diffChanges(
          { widget_enabled: before.enabled, widget_channel_id: before.channel_id },
          { widget_enabled: after.enabled, widget_channel_id: after.channel_id },
        );
        if (changes.length > 0) {
          afterCommit(tx, guildDispatches.guildUpdate(await viewGuild(tx, access.guild)));
        }
        await recordChanges(tx, ids, {
          guildId,
          userId: principal.user.id,
          targetId: guildId,
          actionType: AuditLogActions.GUILD_UPDATE,
          changes,
          reason: request.reason,
        });
        return widgetWire(after);
      });
    },

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

    /**
     * PUT /guilds/{id}/incident-actions (MANAGE_GUILD): pauses invites (creates and joins) or
     * DMs between members until a time at most 24 hours ahead; null lifts a pause.
     */
    async putIncidentActions(
      principal: Principal,
      request: SettingsRequest,
      input: { invites_disabled_until?: number | null; dms_disabled_until?: number | null },
    ) {
      return storage.transaction(async (tx) => {
        const access = await managing(tx, principal, request.guildId);
        const guildId = access.guild.id;
        const now = clock.now();
        const latest = now + L.incidentMaxHours * HOUR_MS;
        for (const key of ['invites_disabled_until', 'dms_disabled_until'] as const) {
          const value = input[key];
          if (value != null && value > latest) {
            throw invalidField([key], 'BASE_TYPE_INVALID', 'Must be at most 24 hours ahead.');
          }
        }
        const before = await readSetting(
          tx,
          { guildId: guildId, name: 'incident_actions' },
          IncidentActions,
        );
        const future = (ms: number | null | undefined) => (ms == null || ms <= now ? null : ms);
        const after = {
          invites_disabled_until:
            input.invites_disabled_until === undefined
              ? before.invites_disabled_until
              : future(input.invites_disabled_until),
          dms_disabled_until:
            input.dms_disabled_until === undefined
              ? before.dms_disabled_until
              : future(input.dms_disabled_until),
        };
        await put(tx, { guildId, name: 'incident_actions' }, after);
        const changes = diffChanges(incidentsWire(before), incidentsWire(after));
        if (changes.length > 0) {
          afterCommit(tx, guildDispatches.guildUpdate(await viewGuild(tx, access.guild)));
        }
        await recordChanges(tx, ids, {
          guildId,
          userId: principal.user.id,
          targetId: guildId,
          actionType: AuditLogActions.GUILD_UPDATE,
          changes,
          reason: request.reason,
        });
        return incidentsWire(after);
      });
    },

    /** GET /guilds/{id}/vanity-url (MANAGE_GUILD): the code (null without one) and its uses. */
    async getVanity(principal: Principal, guildId: string) {
      const access = await managing(storage, principal, guildId);
      const vanity = await storage.guildSettings.vanity(access.guild.id);
      return { code: vanity?.code ?? null, uses: vanity?.uses ?? 0 };
    },

    /**
     * PATCH /guilds/{id}/vanity-url (the client's route): MANAGE_GUILD and the VANITY_URL
     * feature; a code another guild holds, or an invite's, is refused (50020).
     */
    async setVanity(principal: Principal, request: SettingsRequest, code: string | null) {
      return storage.transaction(async (tx) => {
        const access = await managing(tx, principal, request.guildId);
        if (!access.guild.features.includes('VANITY_URL'))
          throw new ApiError('MISSING_PERMISSIONS');
        const guildId = access.guild.id;
        const before = await tx.guildSettings.vanity(guildId);
        if (code !== null && (await tx.invites.find(code)) !== null) {
          throw new ApiError('INVITE_CODE_INVALID_OR_TAKEN');
        }
        try {
          await tx.guildSettings.setVanity(guildId, code);
        } catch (err) {
          if (err instanceof StorageConflictError)
            throw new ApiError('INVITE_CODE_INVALID_OR_TAKEN');
          throw err;
        }
        await recordChanges(tx, ids, {
          guildId,
          userId: principal.user.id,
          targetId: guildId,
          actionType: AuditLogActions.GUILD_UPDATE,
          changes: diffChanges(
            { vanity_url_code: before?.code ?? null },
            { vanity_url_code: code },
          ),
          reason: request.reason,
        });
        return { code, uses: code === before?.code ? before.uses : 0 };
      });
    },
  };
}

export type GuildSettingsService = ReturnType<typeof createGuildSettingsService>;
