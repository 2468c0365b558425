import type { ApplicationCommandRecord, CommandOptionRecord } from '../../storage/index.js';
import { CommandType, IntegrationType } from './limits.js';
import { assertCommandSize } from './rules.js';
import type { OptionInput } from './options.js';
import type { CreateCommandInput, EditCommandInput } from './schemas.js';

/** What a command body sets: every field of a record but its identity, version and creation. */
export type CommandContent = Omit<
  ApplicationCommandRecord,
  'id' | 'applicationId' | 'guildId' | 'version' | 'createdAt'
>;

const nonEmpty = (map: Record<string, string> | null | undefined) =>
  map === null || map === undefined || Object.keys(map).length === 0 ? null : map;

/** The keys an option is stored with, in the platform's order; absent and null ones left out. */
const OPTION_KEYS = [
  'type',
  'name',
  'name_localizations',
  'description',
  'description_localizations',
  'required',
  'choices',
  'options',
  'channel_types',
  'min_value',
  'max_value',
  'min_length',
  'max_length',
  'autocomplete',
  'file_types',
] as const;

/** A validated option as stored (and sent back): `required`/`autocomplete` only when true. */
function storedOption(option: OptionInput): CommandOptionRecord {
  const out: CommandOptionRecord = {};
  for (const key of OPTION_KEYS) {
    const value = option[key];
    if (value === undefined || value === null) continue;
    if ((key === 'required' || key === 'autocomplete') && value !== true) continue;
    if (key === 'name_localizations' || key === 'description_localizations') {
      const map = nonEmpty(value as Record<string, string>);
      if (map !== null) out[key] = map;
    } else if (key === 'options') {
      out[key] = (value as OptionInput[]).map(storedOption);
    } else if (key === 'choices') {
      out[key] = (value as NonNullable<OptionInput['choices']>).map((choice) => ({
        name: choice.name,
        ...(nonEmpty(choice.name_localizations) === null
          ? {}
          : { name_localizations: choice.name_localizations }),
        value: choice.value,
      }));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/**
 * The content of a validated command body (its size checked: 50035 at `path`), defaults applied: type CHAT_INPUT, integration types
 * GUILD_INSTALL, `dm_permission` true, contexts unset.
 */
export function commandContent(
  input: CreateCommandInput,
  path: (string | number)[] = [],
): CommandContent {
  assertCommandSize(input, path);
  const type = input.type ?? CommandType.CHAT_INPUT;
  return {
    type,
    name: input.name,
    nameLocalizations: nonEmpty(input.name_localizations),
    description: input.description ?? '',
    descriptionLocalizations: nonEmpty(input.description_localizations),
    options: (input.options ?? []).map(storedOption),
    defaultMemberPermissions:
      input.default_member_permissions === undefined || input.default_member_permissions === null
        ? null
        : input.default_member_permissions.toString(),
    dmPermission: input.dm_permission ?? true,
    contexts: input.contexts ?? null,
    integrationTypes: input.integration_types ?? [IntegrationType.GUILD_INSTALL],
    nsfw: input.nsfw ?? false,
    handler: type === CommandType.PRIMARY_ENTRY_POINT ? (input.handler ?? null) : null,
  };
}

/**
 * A PATCH applied to a command, as a whole body to validate again: a field left out keeps its
 * value, a null one goes back to its default.
 */
export function mergedBody(record: ApplicationCommandRecord, patch: EditCommandInput): unknown {
  const keep = (value: unknown, current: unknown) => (value === undefined ? current : value);
  return {
    type: record.type,
    name: patch.name ?? record.name,
    name_localizations: keep(patch.name_localizations, record.nameLocalizations),
    description: keep(patch.description, record.description),
    description_localizations: keep(
      patch.description_localizations,
      record.descriptionLocalizations,
    ),
    options: keep(patch.options, record.options),
    default_member_permissions:
      patch.default_member_permissions === undefined
        ? record.defaultMemberPermissions
        : patch.default_member_permissions === null
          ? null
          : patch.default_member_permissions.toString(),
    dm_permission: keep(patch.dm_permission, record.dmPermission),
    contexts: keep(patch.contexts, record.contexts),
    integration_types: keep(patch.integration_types, record.integrationTypes),
    nsfw: keep(patch.nsfw, record.nsfw),
    handler: keep(patch.handler, record.handler),
  };
}

/** The content of a stored command, in `commandContent`'s key order. */
export function contentOf(record: ApplicationCommandRecord): CommandContent {
  return {
    type: record.type,
    name: record.name,
    nameLocalizations: record.nameLocalizations,
    description: record.description,
    descriptionLocalizations: record.descriptionLocalizations,
    options: record.options,
    defaultMemberPermissions: record.defaultMemberPermissions,
    dmPermission: record.dmPermission,
    contexts: record.contexts,
    integrationTypes: record.integrationTypes,
    nsfw: record.nsfw,
    handler: record.handler,
  };
}

/** Whether two contents are the same command (an overwrite that changes nothing keeps its version). */
export function sameContent(a: CommandContent, b: CommandContent): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
