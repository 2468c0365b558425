/**
 * What each interaction type checks and sends (docs/interactions.md#invoking): a command
 * (type 2) or its autocomplete (type 4) must be available to the user there (commands'
 * resolveCommandForInvocation) and its options must fit the command; a component click (type 3)
 * must name an enabled component of the app's message; a modal submit (type 5) must answer the
 * modal the app showed this user. Each returns the `data` the app receives, with `resolved`.
 */
import { z } from 'zod';
import { ApiError, invalidField } from '../../errors/index.js';
import { parseInput } from '../../http/validate.js';
import type { InteractionRecord, MessageRecord, Repositories } from '../../storage/index.js';
import { CommandType, resolveCommandForInvocation } from '../commands/index.js';
import {
  ComponentTypes,
  readComponentClick,
  readModalSubmit,
  type ModalRecord,
} from '../components/index.js';
import type { AttachmentLinks } from '../messages/index.js';
import { checkCommandOptions, type CommandOptionSpec, type OptionReference } from './options.js';
import type { InvocationPlace } from './place.js';
import { resolveReferences, type ResolveRequest } from './resolved.js';
import {
  CommandData,
  ComponentData,
  InteractionTypes,
  ModalData,
  type InvokeInput,
} from './schemas.js';

/** An interaction's `data` and what else the type brings. */
export interface PreparedData {
  data: Record<string, unknown>;
  /** The message a component was clicked on (or a modal shown from). */
  message: MessageRecord | null;
  /** The interaction whose modal a submission answers (its modal is then forgotten). */
  answered: InteractionRecord | null;
}

/** What preparing needs besides the storage. */
export interface PrepareContext {
  place: InvocationPlace;
  input: InvokeInput;
  userId: string;
  nowMs: number;
  links: AttachmentLinks;
  /** Uploaded files as attachment objects, by the id the interaction names them with. */
  attachments: ResolveRequest['attachments'];
}

/** Select menus whose values are ids, and what those ids are. */
const SELECT_REFERENCE_KINDS: Readonly<Record<number, OptionReference['kind']>> = {
  [ComponentTypes.USER_SELECT]: 'user',
  [ComponentTypes.ROLE_SELECT]: 'role',
  [ComponentTypes.MENTIONABLE_SELECT]: 'mentionable',
  [ComponentTypes.CHANNEL_SELECT]: 'channel',
};

/** Each type's schema wrapped once: zod compiles a schema made per request on every request. */
const wrappedSchemas = new WeakMap<z.ZodType, z.ZodType>();

/** Parses `data` of the body with the type's schema, so errors are under `data`. */
function parseData<T>(schema: z.ZodType<T>, input: InvokeInput): T {
  let wrapped = wrappedSchemas.get(schema) as z.ZodType<{ data: T }> | undefined;
  if (wrapped === undefined) {
    wrapped = z.object({ data: schema });
    wrappedSchemas.set(schema, wrapped);
  }
  const parsed: { data: T } = parseInput(wrapped, { data: input.data });
  return parsed.data;
}

/** Types 2 and 4: the command, its options or target, resolved. */
async function prepareCommand(repos: Repositories, context: PrepareContext): Promise<PreparedData> {
  const { place, input, userId } = context;
  const data = parseData(CommandData, input);
  const { access } = place;
  const command = await resolveCommandForInvocation(repos, {
    applicationId: place.application.id,
    commandId: data.id,
    userId,
    guildId: access.guildId,
    channelId: access.channel.id,
    context: place.context,
    authorizingIntegrationOwners: place.authorizingIntegrationOwners,
    memberPermissions: access.guildId === null ? null : access.permissions,
    memberRoleIds: access.member?.roleIds ?? [],
    channelNsfw: access.channel.nsfw,
  });
  if (data.name !== command.name) {
    throw invalidField(
      ['data', 'name'],
      'APPLICATION_COMMAND_NAME_MISMATCH',
      'The name does not match the command.',
    );
  }
  if (data.type !== command.type) {
    throw invalidField(
      ['data', 'type'],
      'APPLICATION_COMMAND_TYPE_MISMATCH',
      'The type does not match the command.',
    );
  }
  const autocomplete = input.type === InteractionTypes.APPLICATION_COMMAND_AUTOCOMPLETE;
  if (autocomplete && command.type !== CommandType.CHAT_INPUT) {
    throw invalidField(
      ['type'],
      'INTERACTION_TYPE_INVALID',
      'Only slash commands have autocomplete.',
    );
  }
  const base = {
    id: command.id,
    name: command.name,
    type: command.type,
    ...(command.guildId === null ? {} : { guild_id: command.guildId }),
  };
  const resolve = (request: Partial<ResolveRequest>) =>
    resolveReferences(
      repos,
      { place, userId, nowMs: context.nowMs, references: [], ...request },
      context.links,
    );

  if (command.type === CommandType.USER || command.type === CommandType.MESSAGE) {
    if ((data.options ?? []).length > 0) {
      throw invalidField(
        ['data', 'options'],
        'BASE_TYPE_INVALID',
        'Context menu commands have no options.',
      );
    }
    const targetId = data.target_id;
    if (targetId === undefined) {
      throw invalidField(['data', 'target_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
    }
    if (command.type === CommandType.USER) {
      if ((await repos.users.findById(targetId)) === null) {
        throw invalidField(['data', 'target_id'], 'INTERACTION_RESOLVED_UNKNOWN', 'Unknown user.');
      }
      return {
        data: {
          ...base,
          target_id: targetId,
          resolved: await resolve({ targetUserIds: [targetId] }),
        },
        message: null,
        answered: null,
      };
    }
    const target = await repos.messages.findById(access.channel.id, targetId);
    if (target === null) throw new ApiError('UNKNOWN_MESSAGE');
    return {
      data: { ...base, target_id: targetId, resolved: await resolve({ targetMessages: [target] }) },
      message: null,
      answered: null,
    };
  }
  const checked = checkCommandOptions(
    command.options as unknown as CommandOptionSpec[],
    data.options ?? [],
    autocomplete,
  );
  // While typing, the focused value is text; only the other options name things.
  const resolved = await resolve({
    references: checked.references,
    attachments: context.attachments,
  });
  return {
    data: {
      ...base,
      ...(checked.options.length === 0 ? {} : { options: checked.options }),
      ...(resolved === undefined ? {} : { resolved }),
    },
    message: null,
    answered: null,
  };
}

/** Whether a message is the app's (its bot's, its interactions', or its webhook's). */
function isAppMessage(message: MessageRecord, place: InvocationPlace): boolean {
  const { application } = place;
  return (
    message.applicationId === application.id ||
    message.webhookId === application.id ||
    (application.botUserId !== null && message.authorId === application.botUserId)
  );
}

/** Type 3: a click or selection on one of the app's messages. */
async function prepareComponent(
  repos: Repositories,
  context: PrepareContext,
): Promise<PreparedData> {
  const { place, input, userId } = context;
  const data = parseData(ComponentData, input);
  if (input.message_id === undefined) {
    throw invalidField(['message_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
  }
  // An ephemeral message's components are clicked by the one user who sees it.
  const message = await repos.messages.findAnyById(place.access.channel.id, input.message_id);
  if (message === null) throw new ApiError('UNKNOWN_MESSAGE');
  if (message.ephemeralUserId != null && message.ephemeralUserId !== userId) {
    throw new ApiError('UNKNOWN_MESSAGE');
  }
  if (!isAppMessage(message, place)) {
    throw invalidField(
      ['message_id'],
      'INTERACTION_MESSAGE_NOT_APPLICATION',
      "This message is not the application's.",
    );
  }
  const click = readComponentClick(message.components ?? [], data);
  const kind = SELECT_REFERENCE_KINDS[data.component_type];
  const references: OptionReference[] =
    kind === undefined
      ? []
      : (click.values ?? []).map((id, index) => ({
          kind,
          id,
          path: ['data', 'values', index],
          channelTypes: [],
        }));
  const resolved = await resolveReferences(
    repos,
    { place, userId, nowMs: context.nowMs, references },
    context.links,
  );
  return {
    data: {
      custom_id: data.custom_id,
      component_type: data.component_type,
      ...(click.values === undefined ? {} : { values: click.values }),
      ...(resolved === undefined ? {} : { resolved }),
    },
    message,
    answered: null,
  };
}

/** Type 5: the answers to the modal the app showed this user. */
async function prepareModalSubmit(
  repos: Repositories,
  context: PrepareContext,
): Promise<PreparedData> {
  const { place, input, userId } = context;
  const data = parseData(ModalData, input);
  const shown = await repos.interactions.findShownModal({
    applicationId: place.application.id,
    userId,
    customId: data.custom_id,
    now: context.nowMs,
  });
  if (shown?.channelId !== place.access.channel.id || shown.modal === null) {
    throw new ApiError('UNKNOWN_INTERACTION');
  }
  const uploaded = context.attachments ?? new Map();
  const submitted = readModalSubmit(shown.modal as ModalRecord, input.data, {
    attachmentIds: [...uploaded.keys()],
  });
  const references: OptionReference[] = submitted.attachmentIds.map((id) => ({
    kind: 'attachment',
    id,
    path: ['data', 'attachments'],
    channelTypes: [],
  }));
  const resolved = await resolveReferences(
    repos,
    { place, userId, nowMs: context.nowMs, references, attachments: uploaded },
    context.links,
  );
  const message =
    shown.messageId === null
      ? null
      : await repos.messages.findAnyById(shown.channelId, shown.messageId);
  return {
    data: {
      custom_id: data.custom_id,
      components: submitted.components,
      ...(resolved === undefined ? {} : { resolved }),
    },
    message,
    answered: shown,
  };
}

/** Checks the interaction's type-specific parts and builds its `data`. */
export function prepareData(repos: Repositories, context: PrepareContext): Promise<PreparedData> {
  switch (context.input.type) {
    case InteractionTypes.APPLICATION_COMMAND:
    case InteractionTypes.APPLICATION_COMMAND_AUTOCOMPLETE:
      return prepareCommand(repos, context);
    case InteractionTypes.MESSAGE_COMPONENT:
      return prepareComponent(repos, context);
    case InteractionTypes.MODAL_SUBMIT:
      return prepareModalSubmit(repos, context);
  }
}
