/**
 * A person's interactions, sent as the web client sends them (docs/interactions.md#invoking):
 * `POST /interactions` with their session token, their gateway `session_id` and a nonce; the
 * command found in the channel's command index; the outcome, reply, modal or autocomplete choices
 * read from what their own session receives for that nonce.
 *
 * @module
 */
import type { APIChannel, APIMessage } from 'discord-api-types/v10';
import { buildOptions, type CommandOptions, type IndexedCommand } from './commandOptions.js';
import {
  buildModalSubmit,
  customIds,
  findComponent,
  type Component,
  type Modal,
  type ModalAnswer,
} from './components.js';
import { InteractionFailedError } from './errors.js';
import type { WaitOptions } from './eventLog.js';
import type { FileInput, RestClient } from './rest.js';
import type { Dispatch, PersonSession } from './session.js';

/** What sending an interaction needs of a person. */
export interface InteractionActor {
  readonly username: string;
  readonly rest: RestClient;
  connect(): Promise<PersonSession>;
  channel(channelId: string): Promise<APIChannel>;
  /** The channel's command index, as last read unless `fresh` (the client keeps it too). */
  commandIndex(channelId: string, fresh?: boolean): Promise<CommandIndex>;
}

/** The command index of a channel (`GET /channels/{id}/application-command-index`). */
export interface CommandIndex {
  applications: { id: string; name: string; bot_id?: string | null }[];
  application_commands: IndexedCommand[];
}

/**
 * A slash command: its path (its name, then a subcommand group and subcommand: `'config set'`),
 * with the app when several in the channel have a command of that name.
 */
export type CommandChoice = string | { path: string; applicationId: string };

/** A command looked up in a channel's index. */
interface CommandQuery {
  name: string;
  /** 1 slash, 2 user, 3 message. */
  type: 1 | 2 | 3;
  applicationId?: string | undefined;
}

/** A message a person clicks in (an `APIMessage` will do). */
export type ClickedMessage = Pick<APIMessage, 'id' | 'channel_id' | 'author'> & {
  application_id?: string;
  flags?: number;
  components?: unknown[];
};

const InteractionType = { COMMAND: 2, COMPONENT: 3, AUTOCOMPLETE: 4, MODAL_SUBMIT: 5 } as const;
/** A message the app has not finished (a deferred reply's "thinking…"). */
const LOADING_FLAG = 1 << 7;

let nonces = 0;
/** A nonce unique in this process, well within the API's 25 characters. */
function nextNonce(): string {
  nonces = (nonces + 1) % 1_000_000_000;
  return `kit.${String(process.pid % 10_000)}.${String(nonces)}`;
}

/**
 * An interaction a person sent: waits on what their client receives for it. Every wait starts
 * from the moment it was sent, so nothing that arrived in between is missed.
 */
export class Interaction {
  /** The nonce it was sent with. */
  readonly nonce: string;
  readonly #session: PersonSession;
  readonly #since: number;
  readonly #what: string;
  readonly #messageId: string | undefined;

  /** @internal Made by the person's interaction methods. */
  constructor(sent: {
    session: PersonSession;
    since: number;
    nonce: string;
    what: string;
    messageId?: string;
  }) {
    this.#session = sent.session;
    this.#since = sent.since;
    this.nonce = sent.nonce;
    this.#what = sent.what;
    this.#messageId = sent.messageId;
  }

  #wait(what: string, match: (d: Dispatch) => boolean, options: WaitOptions) {
    return this.#session.dispatches.waitFor(`${what} for ${this.#what}`, match, {
      ...options,
      since: this.#since,
    });
  }

  /**
   * The interaction's id once the app answered (INTERACTION_SUCCESS); rejects with
   * {@link InteractionFailedError} when it did not in time (INTERACTION_FAILURE).
   */
  async outcome(options: WaitOptions = {}): Promise<string> {
    const outcome = await this.#wait(
      'INTERACTION_SUCCESS or INTERACTION_FAILURE',
      (d) =>
        (d.t === 'INTERACTION_SUCCESS' || d.t === 'INTERACTION_FAILURE') &&
        (d.d as { nonce?: string }).nonce === this.nonce,
      options,
    );
    const id = (outcome.d as { id: string }).id;
    if (outcome.t === 'INTERACTION_FAILURE') throw new InteractionFailedError(id, this.#what);
    return id;
  }

  /**
   * The app's reply message, as the person sees it. A deferred reply ("thinking…") is waited on
   * until the app edits it, unless `deferred: true` asks for the message as first shown.
   */
  async reply(options: WaitOptions & { deferred?: boolean } = {}): Promise<APIMessage> {
    const id = await this.outcome(options);
    const created = await this.#wait(
      'the reply (MESSAGE_CREATE)',
      (d) =>
        d.t === 'MESSAGE_CREATE' &&
        (d.d as { interaction_metadata?: { id?: string } }).interaction_metadata?.id === id,
      options,
    );
    const message = created.d as APIMessage;
    if (options.deferred === true || ((message.flags ?? 0) & LOADING_FLAG) === 0) return message;
    const edited = await this.#wait(
      'the deferred reply edited (MESSAGE_UPDATE)',
      (d) =>
        d.t === 'MESSAGE_UPDATE' &&
        (d.d as APIMessage).id === message.id &&
        (((d.d as APIMessage).flags ?? 0) & LOADING_FLAG) === 0,
      options,
    );
    return edited.d as APIMessage;
  }

  /** The clicked message as the app updated it (a component's UPDATE_MESSAGE, MESSAGE_UPDATE). */
  async update(options: WaitOptions = {}): Promise<APIMessage> {
    await this.outcome(options);
    const messageId = this.#messageId;
    if (messageId === undefined) throw new TypeError(`${this.#what} was not sent from a message`);
    const updated = await this.#wait(
      'the message updated (MESSAGE_UPDATE)',
      (d) => d.t === 'MESSAGE_UPDATE' && (d.d as APIMessage).id === messageId,
      options,
    );
    return updated.d as APIMessage;
  }

  /** The modal the app showed in answer (INTERACTION_MODAL_CREATE). */
  async modal(options: WaitOptions = {}): Promise<Modal> {
    const shown = await this.#wait(
      'a modal (INTERACTION_MODAL_CREATE)',
      (d) => d.t === 'INTERACTION_MODAL_CREATE' && (d.d as Modal).nonce === this.nonce,
      options,
    );
    return shown.d as Modal;
  }

  /** Autocomplete's choices (APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE). */
  async choices(options: WaitOptions = {}): Promise<{ name: string; value: string | number }[]> {
    const answered = await this.#wait(
      'autocomplete choices (APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE)',
      (d) =>
        d.t === 'APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE' &&
        (d.d as { nonce?: string }).nonce === this.nonce,
      options,
    );
    return (answered.d as { choices: { name: string; value: string | number }[] }).choices;
  }
}

/** What one POST /interactions carries beyond the common fields. */
interface Sending {
  type: number;
  applicationId: string;
  channelId: string;
  data: Record<string, unknown>;
  files?: readonly FileInput[];
  messageId?: string;
  what: string;
}

async function send(actor: InteractionActor, sending: Sending): Promise<Interaction> {
  const session = await actor.connect();
  const channel = await actor.channel(sending.channelId);
  const guildId = (channel as { guild_id?: string }).guild_id;
  const nonce = nextNonce();
  const since = session.dispatches.mark();
  await actor.rest.request('POST /interactions', {
    body: {
      type: sending.type,
      application_id: sending.applicationId,
      ...(guildId === undefined ? {} : { guild_id: guildId }),
      channel_id: sending.channelId,
      ...(sending.messageId === undefined ? {} : { message_id: sending.messageId }),
      session_id: session.sessionId,
      nonce,
      data: sending.data,
    },
    ...(sending.files === undefined || sending.files.length === 0 ? {} : { files: sending.files }),
    listFiles: false,
  });
  return new Interaction({
    session,
    since,
    nonce,
    what: sending.what,
    ...(sending.messageId === undefined ? {} : { messageId: sending.messageId }),
  });
}

/** The command named `name` of `type` in the channel's index, or a TypeError saying what is. */
async function findCommand(
  actor: InteractionActor,
  channelId: string,
  query: CommandQuery,
): Promise<IndexedCommand> {
  const { name, type, applicationId } = query;
  const matching = (index: CommandIndex) =>
    index.application_commands.filter(
      (c) =>
        c.name === name &&
        c.type === type &&
        (applicationId === undefined || c.application_id === applicationId),
    );
  let index = await actor.commandIndex(channelId);
  let found = matching(index);
  // Commands registered since the index was read: read it again, as the client does.
  if (found.length === 0) {
    index = await actor.commandIndex(channelId, true);
    found = matching(index);
  }
  const [command] = found;
  if (command === undefined) {
    const listed = index.application_commands.map((c) => `${c.name} (type ${String(c.type)})`);
    throw new TypeError(
      `${actor.username} has no command "${name}" of type ${String(type)} in channel ${channelId}; ` +
        `the index lists ${listed.length === 0 ? 'none' : listed.join(', ')}`,
    );
  }
  if (found.length > 1)
    throw new TypeError(`several apps have "${name}" in channel ${channelId}: name the app`);
  return command;
}

/** The words of a command path: the name, then subcommand group and subcommand. */
const words = (path: string) => path.trim().split(/\s+/);

/** Invokes a slash command with `options` by name, typed by the command's definition. */
export async function slash(
  actor: InteractionActor,
  channelId: string,
  invocation: { command: CommandChoice; options: CommandOptions },
): Promise<Interaction> {
  const { command: choice, options } = invocation;
  const path = typeof choice === 'string' ? choice : choice.path;
  const [name = '', ...subcommands] = words(path);
  const command = await findCommand(actor, channelId, {
    name,
    type: 1,
    applicationId: typeof choice === 'string' ? undefined : choice.applicationId,
  });
  const built = buildOptions(command, { path: subcommands, values: options });
  return send(actor, {
    type: InteractionType.COMMAND,
    applicationId: command.application_id,
    channelId,
    data: commandData(command, built),
    files: built.files,
    what: `/${path}`,
  });
}

/** Autocomplete while typing option `focused` of a slash command. */
export async function autocomplete(
  actor: InteractionActor,
  channelId: string,
  invocation: { path: string; options: CommandOptions & { readonly focused: string } },
): Promise<Interaction> {
  const { focused, ...values } = invocation.options;
  const [name = '', ...subcommands] = words(invocation.path);
  const command = await findCommand(actor, channelId, { name, type: 1 });
  const built = buildOptions(command, { path: subcommands, values, focused });
  return send(actor, {
    type: InteractionType.AUTOCOMPLETE,
    applicationId: command.application_id,
    channelId,
    data: commandData(command, built),
    what: `autocomplete of /${invocation.path} ${focused}`,
  });
}

/** Invokes a user (type 2) or message (type 3) context menu command on its target. */
export async function contextCommand(
  actor: InteractionActor,
  channelId: string,
  target: { name: string; type: 2 | 3; id: string },
): Promise<Interaction> {
  const command = await findCommand(actor, channelId, { name: target.name, type: target.type });
  return send(actor, {
    type: InteractionType.COMMAND,
    applicationId: command.application_id,
    channelId,
    data: { id: command.id, name: command.name, type: command.type, target_id: target.id },
    what: `"${target.name}" on ${target.id}`,
  });
}

function commandData(command: IndexedCommand, built: ReturnType<typeof buildOptions>) {
  return {
    id: command.id,
    name: command.name,
    type: command.type,
    ...(built.options.length === 0 ? {} : { options: built.options }),
    ...(built.attachments.length === 0 ? {} : { attachments: built.attachments }),
  };
}

/** Clicks a button, or chooses `values` in a select menu, of an app's message. */
export async function clickComponent(
  actor: InteractionActor,
  message: ClickedMessage,
  choice: { customId: string; values?: readonly string[] },
): Promise<Interaction> {
  const { customId, values } = choice;
  const components = message.components as Component[] | undefined;
  const component = findComponent(components, customId);
  if (component === null)
    throw new TypeError(
      `message ${message.id} has no component "${customId}"; it has ${customIds(components).join(', ') || 'none'}`,
    );
  let applicationId = message.application_id;
  if (applicationId === undefined) {
    // A bot's own message names no application: the index maps its author to its app.
    const index = await actor.commandIndex(message.channel_id);
    applicationId = index.applications.find((a) => a.bot_id === message.author.id)?.id;
    if (applicationId === undefined)
      throw new TypeError(
        `no app in channel ${message.channel_id} has ${message.author.id} as its bot`,
      );
  }
  return send(actor, {
    type: InteractionType.COMPONENT,
    applicationId,
    channelId: message.channel_id,
    messageId: message.id,
    data: {
      component_type: component.type,
      custom_id: customId,
      ...(values === undefined ? {} : { values }),
    },
    what: `"${customId}" on message ${message.id}`,
  });
}

/** Submits a modal an app showed, answering its fields by custom_id. */
export async function submitModal(
  actor: InteractionActor,
  modal: Modal,
  answers: Readonly<Record<string, ModalAnswer>>,
): Promise<Interaction> {
  const { data, files } = buildModalSubmit(modal, answers);
  return send(actor, {
    type: InteractionType.MODAL_SUBMIT,
    applicationId: modal.application.id,
    channelId: modal.channel_id,
    data,
    files,
    what: `modal "${modal.custom_id}"`,
  });
}
