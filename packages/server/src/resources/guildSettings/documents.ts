/**
 * @module resources/guildSettings/documents: what the settings documents share: reading one
 * through its schema, writing one, the MANAGE_GUILD check, and their wire forms.
 */
import { PermissionFlags as P } from '@guildhall/protocol';
import type { z } from 'zod';
import type { Principal } from '../../http/authenticator.js';
import type { GuildSettingName, Repositories } from '../../storage/index.js';
import { accessLoader, type GuildAccess } from '../access/index.js';
import type { ServiceDeps } from '../deps.js';
import type { IncidentActions, WelcomeScreen, WidgetSettings } from './schemas.js';

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

/** Access and writes for the settings documents, built from the service's deps. */
export function createSettingsDocuments(deps: ServiceDeps) {
  const { clock } = deps;
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

  return { accessFor, put, managing, channelIds };
}

export type SettingsDocuments = ReturnType<typeof createSettingsDocuments>;

export const widgetWire = (widget: WidgetSettings) => ({
  enabled: widget.enabled,
  channel_id: widget.channel_id,
});

export const welcomeWire = (screen: WelcomeScreen) => ({
  description: screen.description,
  welcome_channels: screen.welcome_channels,
});

export const incidentsWire = (incidents: IncidentActions) => ({
  invites_disabled_until: iso(incidents.invites_disabled_until),
  dms_disabled_until: iso(incidents.dms_disabled_until),
});
