/**
 * @module resources/guildSettings/settings: the settings documents of a guild: widget settings,
 * welcome screen, onboarding, the new-member welcome (home settings), incident actions and the
 * vanity URL. Each is read and written whole, as JSON in `guild_settings` (vanity codes in their
 * own table, unique across guilds). What a new member is shown is in ./welcome.ts, the onboarding
 * document's rules in ./onboarding.ts.
 */
import { AuditLogActions } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import { StorageConflictError } from '../../storage/index.js';
import { diffChanges, recordChanges } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import { viewGuild, guildDispatches } from '../guilds/index.js';
import { IncidentActions, SETTINGS_LIMITS as L, WidgetSettings } from './schemas.js';
import { HOUR_MS } from '../../domain/time.js';

import {
  createSettingsDocuments,
  incidentsWire,
  readSetting,
  widgetWire,
  type SettingsRequest,
} from './documents.js';
import { createWelcomeSettings } from './welcome.js';

export function createGuildSettingsService(deps: ServiceDeps) {
  const { storage, clock, ids } = deps;
  const documents = createSettingsDocuments(deps);
  const { managing, channelIds, put } = documents;

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

    // The welcome screen, onboarding and the new-member welcome.
    ...createWelcomeSettings(deps, documents),

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
