/**
 * Guilds for linked channels: the user's guilds and a guild's channels, sorted as the platform's
 * web client lists them (packages/web/src/client/channels/order.ts). Both work with an SDK token
 * (`sdk.social_layer`): docs/lobbies.md#guilds-and-channels-for-linking.
 *
 * @module
 */
import { ChannelType } from './enums.js';
import type { ClientCore } from './core.js';
import { requireSnowflake } from './messageChecks.js';

/** A guild the player is in (`GuildMinimal`). */
export class GuildMinimal {
  readonly #id: string;
  readonly #name: string;

  constructor(id: string, name: string) {
    this.#id = id;
    this.#name = name;
  }

  id(): string {
    return this.#id;
  }

  name(): string {
    return this.#name;
  }
}

/** The lobby a guild channel is linked to (`LinkedLobby`). */
export class LinkedLobby {
  readonly #applicationId: string;
  readonly #lobbyId: string;

  constructor(applicationId: string, lobbyId: string) {
    this.#applicationId = applicationId;
    this.#lobbyId = lobbyId;
  }

  applicationId(): string {
    return this.#applicationId;
  }

  lobbyId(): string {
    return this.#lobbyId;
  }
}

/** One channel of a guild as the player sees it, for linking (`GuildChannel`). */
export class GuildChannel {
  readonly #wire: WireGuildChannel;

  constructor(wire: WireGuildChannel) {
    this.#wire = wire;
  }

  id(): string {
    return this.#wire.id;
  }

  name(): string {
    return this.#wire.name;
  }

  type(): ChannelType {
    return this.#wire.type as ChannelType;
  }

  position(): number {
    return this.#wire.position;
  }

  /** The category it is in, or null. */
  parentId(): string | null {
    return this.#wire.parent_id;
  }

  /** Whether the player may link a lobby to it: a text channel with MANAGE_CHANNELS. */
  isLinkable(): boolean {
    return this.#wire.linkable;
  }

  /** Whether every member (the @everyone role) may view it and send messages in it. */
  isViewableAndWriteableByAllMembers(): boolean {
    return this.#wire.viewable_and_writeable_by_all_members;
  }

  /** The lobby of the token's application linked to it, or null. */
  linkedLobby(): LinkedLobby | null {
    const linked = this.#wire.linked_lobby;
    return linked === null ? null : new LinkedLobby(linked.application_id, linked.lobby_id);
  }
}

/** `GET /users/@me/guilds/{guild.id}/channels` (Guildhall's own; docs/lobbies.md). */
export interface WireGuildChannel {
  id: string;
  name: string;
  type: number;
  position: number;
  parent_id: string | null;
  linkable: boolean;
  viewable_and_writeable_by_all_members: boolean;
  linked_lobby: { application_id: string; lobby_id: string } | null;
}

const isVoice = (c: WireGuildChannel) =>
  c.type === ChannelType.GuildVoice || c.type === ChannelType.GuildStageVoice;
const isText = (c: WireGuildChannel) =>
  c.type === ChannelType.GuildText || c.type === ChannelType.GuildNews;

/** The web client's order within a group: text before voice, then position, then age. */
function byPosition(a: WireGuildChannel, b: WireGuildChannel): number {
  const voice = Number(isVoice(a)) - Number(isVoice(b));
  if (voice !== 0) return voice;
  if (a.position !== b.position) return a.position - b.position;
  return a.id.length - b.id.length || a.id.localeCompare(b.id);
}

/**
 * A guild's channels in the web client's sidebar order: the text and voice channels outside any
 * category, then each category (by position) followed by its channels. Other channel types are
 * not listed there and are left out here too.
 */
export function sortGuildChannels(channels: readonly WireGuildChannel[]): WireGuildChannel[] {
  const categories = channels.filter((c) => c.type === ChannelType.GuildCategory).sort(byPosition);
  const listed = channels.filter((c) => isText(c) || isVoice(c));
  const known = new Set(categories.map((c) => c.id));
  const sorted = listed
    .filter((c) => c.parent_id === null || !known.has(c.parent_id))
    .sort(byPosition);
  for (const category of categories) {
    sorted.push(category, ...listed.filter((c) => c.parent_id === category.id).sort(byPosition));
  }
  return sorted;
}

export class GuildsArea {
  protected readonly core: ClientCore;

  constructor(core: ClientCore) {
    this.core = core;
  }

  /** `GET /users/@me/guilds`: the guilds the player is in (up to 200). */
  async getUserGuilds(): Promise<GuildMinimal[]> {
    this.core.requireReady('getUserGuilds');
    const guilds = await this.core.http.get<{ id: string; name: string }[]>('/users/@me/guilds');
    return guilds.map((guild) => new GuildMinimal(guild.id, guild.name));
  }

  /**
   * `GET /users/@me/guilds/{guild.id}/channels`: the channels of a guild the player is in that
   * they can view, with whether they may link each, sorted as the web client lists them.
   */
  async getGuildChannels(guildId: string): Promise<GuildChannel[]> {
    const operation = 'getGuildChannels';
    requireSnowflake(operation, 'guildId', guildId);
    this.core.requireReady(operation);
    const channels = await this.core.http.get<WireGuildChannel[]>(
      `/users/@me/guilds/${guildId}/channels`,
    );
    return sortGuildChannels(channels).map((wire) => new GuildChannel(wire));
  }
}
