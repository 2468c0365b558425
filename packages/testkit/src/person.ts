/**
 * A person, driven through the platform's public routes with their session token, as the web
 * client does: messages, reactions, invites, guilds, DMs, friends, presence and activities here;
 * commands, components and modals in `interactions.ts`; voice in `voice.ts`. Every action resolves
 * with the platform's object and rejects with its error ({@link GuildhallApiError}).
 *
 * @module
 */
import type { APIChannel, APIInvite, APIMessage, APIUser } from 'discord-api-types/v10';
import type { CommandOptions } from './commandOptions.js';
import type { Modal, ModalAnswer } from './components.js';
import type { WaitOptions } from './eventLog.js';
import {
  autocomplete,
  clickComponent,
  contextCommand,
  slash,
  submitModal,
  type ClickedMessage,
  type CommandChoice,
  type CommandIndex,
  type Interaction,
} from './interactions.js';
import { createRestClient, type FileInput, type RequestInit, type RestClient } from './rest.js';
import { PersonSession, type Dispatch } from './session.js';
import { joinVoice, type VoiceCall } from './voice.js';

/** Who a person is: the ids and token the world gave them. */
export interface PersonIdentity {
  /** Their user id. */
  id: string;
  /** Their username. */
  username: string;
  /** Their session token (sent as `Authorization` as it is). */
  token: string;
}

/** Where the platform is. */
export interface PlatformUrls {
  /** The `/api` base. */
  apiUrl: string;
  /** The gateway's `ws://` URL. */
  gatewayUrl: string;
}

/** A message to send: text, or the fields of `POST /channels/{id}/messages`. */
export type MessageInput =
  | string
  | {
      content?: string;
      /** Embeds, components, poll, flags, … as the API takes them. */
      [field: string]: unknown;
      /** Files to attach (`files[n]`). */
      files?: readonly FileInput[];
    };

/** A message named by its channel and id (an `APIMessage` will do). */
export interface MessageRef {
  id: string;
  channel_id: string;
}

/** An activity instance, as `POST /channels/{id}/activity-instances` answers. */
export interface ActivityInstance {
  application_id: string;
  instance_id: string;
  launch_id: string;
  location: { id: string; kind: string; channel_id: string; guild_id?: string | null };
  users: string[];
  launched_by: string;
  ended: boolean;
}

/** A relationship as `GET /users/@me/relationships` lists it (type 1 friend, 3/4 requests). */
export interface Relationship {
  id: string;
  type: number;
  nickname: string | null;
  user: APIUser;
}

/** A presence to show (op 3). */
export interface PresenceInput {
  status: 'online' | 'idle' | 'dnd' | 'invisible';
  activities?: readonly { name: string; type: number; [field: string]: unknown }[];
}

/** An emoji to react with: a unicode emoji, or `name:id` for a custom one. */
export type EmojiInput = string;

/** The person side of the kit: actions and what their client sees. */
export class Person implements PersonIdentity {
  readonly id: string;
  readonly username: string;
  readonly token: string;
  /** Requests as this person (routes the driver has no method for). */
  readonly rest: RestClient;
  readonly #urls: PlatformUrls;
  #session: PersonSession | null = null;
  readonly #channels = new Map<string, APIChannel>();
  readonly #commandIndexes = new Map<string, CommandIndex>();

  constructor(identity: PersonIdentity, urls: PlatformUrls) {
    this.id = identity.id;
    this.username = identity.username;
    this.token = identity.token;
    this.#urls = urls;
    this.rest = createRestClient(urls.apiUrl, identity.token);
  }

  /** Where the platform is (for the interaction and voice drivers). */
  get urls(): PlatformUrls {
    return this.#urls;
  }

  /**
   * Opens the person's gateway session (the web client's), if not open: what they see from then
   * on is recorded for the waits. Actions that need it open it themselves.
   */
  async connect(): Promise<PersonSession> {
    this.#session ??= await PersonSession.open(this.#urls.gatewayUrl, this.token);
    return this.#session;
  }

  /** The open session, or null before {@link Person.connect}. */
  get session(): PersonSession | null {
    return this.#session;
  }

  /** Closes the gateway session (and with it any voice call of it). */
  disconnect(): void {
    this.#session?.close();
    this.#session = null;
  }

  /**
   * A request as the person, once their client is connected: a person using the client has its
   * gateway session open, so what their actions cause is seen by the waits.
   */
  async #request<T = unknown>(route: string, init?: RequestInit): Promise<T> {
    await this.connect();
    return this.rest.request<T>(route, init);
  }

  /** A channel the person can see (`GET /channels/{id}`), remembered. */
  async channel(channelId: string): Promise<APIChannel> {
    const known = this.#channels.get(channelId);
    if (known !== undefined) return known;
    const channel = await this.#request<APIChannel>(`GET /channels/${channelId}`);
    this.#channels.set(channelId, channel);
    return channel;
  }

  /**
   * The commands the person may use in a channel (`GET /channels/{id}/application-command-index`),
   * as last read unless `fresh`.
   */
  async commandIndex(channelId: string, fresh = false): Promise<CommandIndex> {
    const known = fresh ? undefined : this.#commandIndexes.get(channelId);
    if (known !== undefined) return known;
    const index = await this.#request<CommandIndex>(
      `GET /channels/${channelId}/application-command-index`,
    );
    this.#commandIndexes.set(channelId, index);
    return index;
  }

  // Messages

  /** Sends a message (with attachments when `files` are given). */
  send(channelId: string, message: MessageInput): Promise<APIMessage> {
    const { files, ...body } = typeof message === 'string' ? { content: message } : message;
    return this.#request<APIMessage>(`POST /channels/${channelId}/messages`, {
      body,
      ...(files === undefined ? {} : { files }),
    });
  }

  /** Replies to a message (a message reference to it). */
  reply(to: MessageRef, message: MessageInput): Promise<APIMessage> {
    const fields = typeof message === 'string' ? { content: message } : message;
    return this.send(to.channel_id, {
      ...fields,
      message_reference: { message_id: to.id, channel_id: to.channel_id },
    });
  }

  /** Edits one of the person's messages. */
  edit(message: MessageRef, edit: MessageInput): Promise<APIMessage> {
    const { files, ...body } = typeof edit === 'string' ? { content: edit } : edit;
    return this.#request<APIMessage>(
      `PATCH /channels/${message.channel_id}/messages/${message.id}`,
      { body, ...(files === undefined ? {} : { files }) },
    );
  }

  /** Deletes a message (theirs, or another's with Manage Messages). */
  async delete(message: MessageRef): Promise<void> {
    await this.#request(`DELETE /channels/${message.channel_id}/messages/${message.id}`);
  }

  /** The channel's latest messages, newest first (`GET /channels/{id}/messages`). */
  messages(channelId: string, query: { limit?: number; before?: string } = {}) {
    return this.#request<APIMessage[]>(`GET /channels/${channelId}/messages`, { query });
  }

  /** Adds the person's reaction. */
  async react(message: MessageRef, emoji: EmojiInput): Promise<void> {
    await this.#request(`PUT ${reactionPath(message, emoji)}/@me`);
  }

  /** Removes the person's reaction. */
  async unreact(message: MessageRef, emoji: EmojiInput): Promise<void> {
    await this.#request(`DELETE ${reactionPath(message, emoji)}/@me`);
  }

  // Guilds and invites

  /** Accepts an invite (`POST /invites/{code}`): joins its guild or group DM. */
  acceptInvite(code: string): Promise<APIInvite> {
    return this.#request<APIInvite>(`POST /invites/${encodeURIComponent(code)}`);
  }

  /** Makes an invite to a channel. */
  createInvite(channelId: string, options: { max_age?: number; max_uses?: number } = {}) {
    return this.#request<APIInvite>(`POST /channels/${channelId}/invites`, { body: options });
  }

  /** Leaves a guild (`DELETE /users/@me/guilds/{id}`). */
  async leaveGuild(guildId: string): Promise<void> {
    await this.#request(`DELETE /users/@me/guilds/${guildId}`);
  }

  // DMs

  /** Opens (or finds) the DM with a user. */
  openDm(userId: string): Promise<APIChannel> {
    return this.#request<APIChannel>('POST /users/@me/channels', {
      body: { recipient_id: userId },
    });
  }

  /** A group DM of the person and these users. */
  openGroupDm(userIds: readonly string[]): Promise<APIChannel> {
    return this.#request<APIChannel>('POST /users/@me/channels', {
      body: { recipients: userIds },
    });
  }

  /** Sends a direct message: opens the DM and sends in it. */
  async dm(userId: string, message: MessageInput): Promise<APIMessage> {
    return this.send((await this.openDm(userId)).id, message);
  }

  // Friends

  /** Sends a friend request by username. */
  async sendFriendRequest(username: string): Promise<void> {
    await this.#request('POST /users/@me/relationships', { body: { username } });
  }

  /** Accepts a friend request from a user, or asks them (by id). */
  async addFriend(userId: string): Promise<void> {
    await this.#request(`PUT /users/@me/relationships/${userId}`, { body: {} });
  }

  /** Removes a friend, cancels or ignores a request, or unblocks. */
  async removeRelationship(userId: string): Promise<void> {
    await this.#request(`DELETE /users/@me/relationships/${userId}`);
  }

  /** Blocks a user. */
  async block(userId: string): Promise<void> {
    await this.#request(`PUT /users/@me/relationships/${userId}`, { body: { type: 2 } });
  }

  /** The person's friends, requests and blocks. */
  relationships(): Promise<Relationship[]> {
    return this.#request<Relationship[]>('GET /users/@me/relationships');
  }

  // Commands, components and modals

  /**
   * Invokes a slash command from the channel's command picker: `command` is its name, then a
   * subcommand group and subcommand (`'config set'`), or with the app `{path, applicationId}`;
   * `options` by name, typed as the command defines them (files for attachment options).
   */
  slash(channelId: string, command: CommandChoice, options: CommandOptions = {}) {
    return slash(this, channelId, { command, options });
  }

  /** Autocomplete's choices while typing option `focused` of a slash command. */
  async autocomplete(
    channelId: string,
    path: string,
    options: CommandOptions & { readonly focused: string },
  ): Promise<{ name: string; value: string | number }[]> {
    return (await autocomplete(this, channelId, { path, options })).choices();
  }

  /** Invokes a user command (context menu) on a user. */
  userCommand(channelId: string, name: string, user: string | { id: string }) {
    const id = typeof user === 'string' ? user : user.id;
    return contextCommand(this, channelId, { name, type: 2, id });
  }

  /** Invokes a message command (context menu) on a message. */
  messageCommand(name: string, message: MessageRef): Promise<Interaction> {
    return contextCommand(this, message.channel_id, { name, type: 3, id: message.id });
  }

  /** Clicks a button of an app's message. */
  click(message: ClickedMessage, customId: string): Promise<Interaction> {
    return clickComponent(this, message, { customId });
  }

  /** Chooses values in a select menu of an app's message. */
  select(message: ClickedMessage, customId: string, values: readonly string[]) {
    return clickComponent(this, message, { customId, values });
  }

  /** Submits a modal an app showed (see {@link Interaction.modal}), answers by custom_id. */
  submitModal(modal: Modal, answers: Readonly<Record<string, ModalAnswer>>): Promise<Interaction> {
    return submitModal(this, modal, answers);
  }

  // Voice

  /**
   * Joins a guild voice channel (op 4 on the person's session); the call speaks and hears PCM in
   * Node ({@link VoiceCall.speak}, {@link VoiceCall.hear}).
   */
  async joinVoice(
    channelId: string,
    options: { selfMute?: boolean; selfDeaf?: boolean } = {},
  ): Promise<VoiceCall> {
    const channel = await this.channel(channelId);
    const guildId = (channel as { guild_id?: string }).guild_id;
    if (guildId === undefined) throw new TypeError(`channel ${channelId} is not in a guild`);
    return joinVoice(this, { guildId, channelId, ...options });
  }

  // Presence and activities

  /** Sets the person's status and activities (op 3 on their session). */
  async setPresence(presence: PresenceInput): Promise<void> {
    const session = await this.connect();
    session.send(3, {
      since: null,
      activities: presence.activities ?? [],
      status: presence.status,
      afk: false,
    });
  }

  /** Launches an app's activity in a channel, or joins the instance running there. */
  launchActivity(channelId: string, applicationId: string): Promise<ActivityInstance> {
    return this.#request<ActivityInstance>(`POST /channels/${channelId}/activity-instances`, {
      body: { application_id: applicationId },
    });
  }

  /** Leaves an activity instance. */
  async leaveActivity(instance: Pick<ActivityInstance, 'instance_id' | 'location'>) {
    await this.#request(
      `DELETE /channels/${instance.location.channel_id}/activity-instances/${instance.instance_id}/participants/@me`,
    );
  }

  // Observing

  /**
   * The first dispatch of this type the person's client received that matches, or the next to
   * arrive (see {@link WaitOptions}). Opens the session first if needed.
   */
  async waitForDispatch<TData = unknown>(
    type: string,
    match: (data: TData) => boolean = () => true,
    options: WaitOptions = {},
  ): Promise<TData> {
    const session = await this.connect();
    const found = await session.dispatches.waitFor(
      `${type} seen by ${this.username}`,
      (d) => d.t === type && match(d.d as TData),
      options,
    );
    return found.d as TData;
  }

  /** The first message (MESSAGE_CREATE) the person saw that matches, or the next. */
  waitForMessage(
    match: (message: APIMessage) => boolean = () => true,
    options: WaitOptions = {},
  ): Promise<APIMessage> {
    return this.waitForDispatch<APIMessage>('MESSAGE_CREATE', match, options);
  }

  /**
   * A mark in what the person's client received: `{ since: ann.mark() }` makes a wait match
   * only what arrives after it (0 before {@link Person.connect}).
   */
  mark(): number {
    return this.#session?.dispatches.mark() ?? 0;
  }

  /** Every dispatch the person's client received since {@link Person.connect}. */
  get dispatches(): readonly Dispatch[] {
    return this.#session?.dispatches.events ?? [];
  }
}

function reactionPath(message: MessageRef, emoji: EmojiInput): string {
  return `/channels/${message.channel_id}/messages/${message.id}/reactions/${encodeURIComponent(emoji)}`;
}
