/**
 * A person, driven through the platform's public routes with their session token, as the web
 * client does: messages, reactions, invites, guilds, DMs, friends, presence and activities here;
 * commands, components and modals in `interactions.ts`; voice in `voice.ts`; the session and its
 * waits in `personClient.ts`. Every action resolves with the platform's object and rejects with
 * its error ({@link GuildhallApiError}).
 *
 * @module
 */
import type { APIChannel, APIInvite, APIMessage, APIUser } from 'discord-api-types/v10';
import type { CommandOptions } from './commandOptions.js';
import type { Modal, ModalAnswer } from './components.js';
import {
  autocomplete,
  clickComponent,
  contextCommand,
  slash,
  submitModal,
  type ClickedMessage,
  type CommandChoice,
  type Interaction,
} from './interactions.js';
import {
  PersonClient,
  requestConnected,
  type PersonIdentity,
  type PlatformUrls,
} from './personClient.js';
import type { FileInput, RequestInit } from './rest.js';
import { joinVoice, type VoiceCall } from './voice.js';

export type { PersonIdentity, PlatformUrls };

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
export class Person extends PersonClient {
  /** A request as the person, once their client is connected. */
  #request<T = unknown>(route: string, init?: RequestInit): Promise<T> {
    return requestConnected<T>(this, route, init);
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
}

function reactionPath(message: MessageRef, emoji: EmojiInput): string {
  return `/channels/${message.channel_id}/messages/${message.id}/reactions/${encodeURIComponent(emoji)}`;
}
