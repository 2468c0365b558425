/**
 * What a person's client is, before anything is done with it: who they are, their gateway session
 * (opened on first need) and what it received, and the channels and command indexes it read.
 * `person.ts` adds the actions.
 *
 * @module
 */
import type { APIChannel, APIMessage } from 'discord-api-types/v10';
import type { WaitOptions } from './eventLog.js';
import type { CommandIndex } from './interactions.js';
import { createRestClient, type RequestInit, type RestClient } from './rest.js';
import { PersonSession, type Dispatch } from './session.js';

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

/**
 * A request as the person, once their client is connected: a person using the client has its
 * gateway session open, so what their actions cause is seen by the waits.
 */
export async function requestConnected<T = unknown>(
  client: PersonClient,
  route: string,
  init?: RequestInit,
): Promise<T> {
  await client.connect();
  return client.rest.request<T>(route, init);
}

/** A person's client: their session, what it read and what it received. */
export class PersonClient implements PersonIdentity {
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

  /** A channel the person can see (`GET /channels/{id}`), remembered. */
  async channel(channelId: string): Promise<APIChannel> {
    const known = this.#channels.get(channelId);
    if (known !== undefined) return known;
    const channel = await requestConnected<APIChannel>(this, `GET /channels/${channelId}`);
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
    const index = await requestConnected<CommandIndex>(
      this,
      `GET /channels/${channelId}/application-command-index`,
    );
    this.#commandIndexes.set(channelId, index);
    return index;
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
