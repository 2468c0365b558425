import type {
  ApplicationCommandRecord,
  CommandOptionRecord,
  GuildCommandPermissionsRecord,
  Localizations,
} from '../../storage/index.js';
import { CommandType } from './limits.js';

/** How localized text is shown (GET …/commands `with_localizations` and `X-Discord-Locale`). */
export interface LocalizationView {
  /** The reader's locale: `name_localized`/`description_localized` are given in it. */
  locale?: string;
  /**
   * Whether the full `*_localizations` maps are included (the default). A list without
   * `with_localizations` leaves them out and gives only the `*_localized` fields.
   */
  withLocalizations?: boolean;
}

/** The `name`-like field with its localizations, as the view asks. */
function localized(
  field: 'name' | 'description',
  value: { text: string; map: Localizations | null | undefined },
  view: LocalizationView,
): Record<string, unknown> {
  const { text, map } = value;
  const out: Record<string, unknown> = { [field]: text };
  // A command always has its maps (null when unset); an option or choice only when it has one.
  if (view.withLocalizations !== false && map !== undefined) {
    out[`${field}_localizations`] = map;
  }
  if (view.locale !== undefined) {
    const inLocale = map?.[view.locale];
    if (inLocale !== undefined) out[`${field}_localized`] = inLocale;
  }
  return out;
}

const asMap = (value: unknown): Localizations | undefined =>
  typeof value === 'object' && value !== null ? (value as Localizations) : undefined;

/** An option (or choice) with its localizations as the view asks, nested ones too. */
function serializeOption(
  option: CommandOptionRecord,
  view: LocalizationView,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(option)) {
    if (key === 'name_localizations' || key === 'description_localizations') continue;
    if (key === 'name' || key === 'description') {
      Object.assign(
        out,
        localized(key, { text: String(value), map: asMap(option[`${key}_localizations`]) }, view),
      );
    } else if (key === 'options' || key === 'choices') {
      out[key] = (value as CommandOptionRecord[]).map((o) => serializeOption(o, view));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/**
 * A command on the wire (ApplicationCommandResponse). `guild_id` only on guild commands;
 * `dm_permission` on global ones, derived from `contexts` when those are set (BOT_DM in them),
 * as the platform answers; `handler` only on PRIMARY_ENTRY_POINT commands.
 */
export function serializeCommand(record: ApplicationCommandRecord, view: LocalizationView = {}) {
  return {
    id: record.id,
    application_id: record.applicationId,
    version: record.version,
    default_member_permissions: record.defaultMemberPermissions,
    type: record.type,
    ...localized('name', { text: record.name, map: record.nameLocalizations }, view),
    ...localized(
      'description',
      { text: record.description, map: record.descriptionLocalizations },
      view,
    ),
    ...(record.guildId === null
      ? {
          dm_permission:
            record.contexts === null ? record.dmPermission : record.contexts.includes(1),
        }
      : { guild_id: record.guildId }),
    contexts: record.contexts,
    integration_types: record.integrationTypes,
    ...(record.options.length === 0
      ? {}
      : { options: record.options.map((o) => serializeOption(o, view)) }),
    nsfw: record.nsfw,
    ...(record.type === CommandType.PRIMARY_ENTRY_POINT && record.handler !== null
      ? { handler: record.handler }
      : {}),
  };
}

export type CommandWire = ReturnType<typeof serializeCommand>;

/** A command's (or the application-wide) permissions in a guild (CommandPermissionsResponse). */
export function serializePermissions(record: GuildCommandPermissionsRecord) {
  return {
    id: record.commandId,
    application_id: record.applicationId,
    guild_id: record.guildId,
    permissions: record.permissions.map((p) => ({
      id: p.id,
      type: p.type,
      permission: p.permission,
    })),
  };
}

export type CommandPermissionsWire = ReturnType<typeof serializePermissions>;
