/**
 * Rich presence and activity invites (docs/social-presence.md): `Activity` and its parts,
 * updateRichPresence / clearRichPresence / setOnlineStatus (gateway op 3), invites sent as DM
 * messages with an `activity` (docs/social-dms.md), accepted with
 * `POST /users/@me/activities/{party_id}/join`, and the ACTIVITY_JOIN dispatch.
 *
 * The platform keeps no presence for a new session, so after each READY the client sends op 3
 * itself: the status of setOnlineStatus (online by default) and the rich presence last set
 * (also one set before connecting). Until then the player shows offline to friends.
 *
 * This module also keeps `core.state`'s users, relationships and presences from READY and the
 * dispatches after it (`socialSync`), for the users and relationships areas.
 *
 * @module
 */
import type { ClientCore } from './core.js';
import {
  ACTIVITY_GAME_PLATFORM_WIRE,
  ActivityActionTypes,
  ActivityGamePlatforms,
  ActivityPartyPrivacy,
  ActivityTypes,
  RelationshipType,
  StatusDisplayTypes,
  StatusType,
} from './enums.js';
import { notReadyError, validationError } from './errors.js';
import type {
  WireActivity,
  WireMessage,
  WirePresence,
  WireReady,
  WireRelationship,
  WireUser,
} from './wire.js';

/** What the SDK's shared state sync tells the areas, per client. */
interface SyncListeners {
  /** A user's data (name, avatar) or presence (status, activities) changed. */
  userChanged: ((userId: string) => void)[];
  /** Something that may move a friend between groups happened (`userId` caused it). */
  graphChanged: ((userId: string) => void)[];
  /** A user's presence changed (after the state holds it). */
  presenceChanged: ((userId: string) => void)[];
  /** READY was applied (relationships and presences are in the state). */
  ready: (() => void)[];
}

const syncs = new WeakMap<ClientCore, SyncListeners>();

/**
 * The SDK's one keeper of users, relationships and presences in `core.state`, shared by the
 * users, relationships and presence areas (SDK-internal: games use `Client`).
 *
 * @internal
 */
export function socialSync(core: ClientCore): SyncListeners {
  const known = syncs.get(core);
  if (known !== undefined) return known;
  const listeners: SyncListeners = {
    userChanged: [],
    graphChanged: [],
    presenceChanged: [],
    ready: [],
  };
  syncs.set(core, listeners);
  const { state } = core;
  const emit = (list: ((userId: string) => void)[], userId: string) => {
    for (const listener of list) listener(userId);
  };

  // The client's READY handler, added before the areas are made, has cleared the state.
  core.on('READY', (data) => {
    const ready = data as WireReady;
    for (const relationship of ready.relationships ?? []) {
      state.cacheUser(relationship.user);
      const pair = state.relationships.get(relationship.id) ?? { discord: null, game: null };
      pair[scopeOf(relationship)] = relationship;
      state.relationships.set(relationship.id, pair);
    }
    for (const presence of ready.presences ?? []) {
      state.presences.set(presence.user.id, presence);
    }
    for (const listener of listeners.ready) listener();
  });

  core.on('USER_UPDATE', (data) => {
    const user = data as WireUser;
    const before = userSignature(state.users.get(user.id));
    state.cacheUser(user);
    if (userSignature(state.users.get(user.id)) !== before) {
      emit(listeners.userChanged, user.id);
      emit(listeners.graphChanged, user.id);
    }
  });

  const onRelationship = (data: unknown, removed: boolean) => {
    const relationship = data as WireRelationship;
    const applicationId = core.state.applicationId;
    // A game relationship of another game is not this client's (the gateway scopes them).
    if (
      relationship.application_id !== undefined &&
      applicationId !== null &&
      relationship.application_id !== applicationId
    ) {
      return;
    }
    const userBefore = userSignature(state.users.get(relationship.id));
    state.cacheUser(relationship.user);
    const pair = state.relationships.get(relationship.id) ?? { discord: null, game: null };
    pair[scopeOf(relationship)] = removed ? null : relationship;
    if (pair.discord === null && pair.game === null) state.relationships.delete(relationship.id);
    else state.relationships.set(relationship.id, pair);
    // An ended friendship sends no PRESENCE_UPDATE: the presence is dropped here.
    if (!isFriend(pair) && state.presences.delete(relationship.id)) {
      emit(listeners.presenceChanged, relationship.id);
    }
    if (userSignature(state.users.get(relationship.id)) !== userBefore) {
      emit(listeners.userChanged, relationship.id);
    }
    emit(listeners.graphChanged, relationship.id);
  };
  core.on('RELATIONSHIP_ADD', (data) => {
    onRelationship(data, false);
  });
  core.on('RELATIONSHIP_UPDATE', (data) => {
    onRelationship(data, false);
  });
  core.on('RELATIONSHIP_REMOVE', (data) => {
    onRelationship(data, true);
  });

  core.on('PRESENCE_UPDATE', (data) => {
    const presence = data as WirePresence & { guild_id?: string };
    // Guild presences never reach an SDK session; a person's token could see some: not friends'.
    if (presence.guild_id !== undefined) return;
    const userId = presence.user.id;
    const before = presenceSignature(state.presences.get(userId));
    const userBefore = userSignature(state.users.get(userId));
    if (presence.user.username !== undefined) state.cacheUser(presence.user as WireUser);
    if (presence.status === 'offline') state.presences.delete(userId);
    else state.presences.set(userId, presence);
    const presenceMoved = presenceSignature(state.presences.get(userId)) !== before;
    if (presenceMoved) emit(listeners.presenceChanged, userId);
    if (presenceMoved || userSignature(state.users.get(userId)) !== userBefore) {
      emit(listeners.userChanged, userId);
    }
    emit(listeners.graphChanged, userId);
  });
  return listeners;
}

/** The scope of a wire relationship: a game one carries its application's id. */
function scopeOf(relationship: WireRelationship): 'discord' | 'game' {
  return relationship.application_id === undefined ? 'discord' : 'game';
}

function userSignature(user: WireUser | undefined): string {
  if (user === undefined) return '';
  return JSON.stringify([user.username, user.global_name ?? null, user.avatar ?? null]);
}

function presenceSignature(presence: WirePresence | undefined): string {
  if (presence === undefined) return 'offline';
  return JSON.stringify([presence.status, presence.activities]);
}

/** @internal */
export function isFriend(pair: {
  discord: WireRelationship | null;
  game: WireRelationship | null;
}) {
  return (
    pair.discord?.type === RelationshipType.Friend || pair.game?.type === RelationshipType.Friend
  );
}

const SNOWFLAKE = /^\d{1,20}$/;

/** A user id argument: a snowflake string. @internal */
export function checkUserId(operation: string, userId: string): string {
  if (typeof userId !== 'string' || !SNOWFLAKE.test(userId)) {
    throw validationError(`${operation}: ${JSON.stringify(userId)} is not a user id.`);
  }
  return userId;
}

/** The gateway's presence update command. */
const PRESENCE_UPDATE_OP = 3;
/** The platform's limits of an activity's fields (docs/gateway.md, Presence). */
const MAX_NAME = 128;
const MAX_TEXT = 128;
const MAX_URL = 256;
const MAX_BUTTONS = 2;
const MAX_BUTTON_LABEL = 32;
const MAX_BUTTON_URL = 512;
/** A DM message's content (docs/messages.md). */
const MAX_CONTENT = 2000;
/** Received invites the client keeps watching (the newest ones). */
const MAX_KEPT_INVITES = 200;

function checkText(what: string, value: string | null, max = MAX_TEXT): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') throw validationError(`${what} must be a string or null.`);
  if (value.length > max) {
    throw validationError(`${what} is longer than ${max} characters: shorten it.`);
  }
  return value === '' ? null : value;
}

function checkUrl(what: string, value: string | null, max = MAX_URL): string | null {
  const text = checkText(what, value, max);
  if (text === null) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw validationError(`${what} must be an http(s) URL: "${text}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw validationError(`${what} must be an http(s) URL, not ${url.protocol}.`);
  }
  return text;
}

function checkWhole(what: string, value: number, min = 0): number {
  if (!Number.isSafeInteger(value) || value < min) {
    throw validationError(`${what} must be a whole number of at least ${min}.`);
  }
  return value;
}

function checkMember<T extends number>(
  what: string,
  values: Readonly<Record<string, T>>,
  value: T,
): T {
  if (!Object.values(values).includes(value)) {
    throw validationError(
      `${what}: ${String(value)} is not one of ${Object.keys(values).join(', ')}.`,
    );
  }
  return value;
}

/** `ActivityAssets`: the images of a rich presence (asset keys or URLs) and their hover texts. */
export class ActivityAssets {
  #largeImage: string | null = null;
  #largeText: string | null = null;
  #largeUrl: string | null = null;
  #smallImage: string | null = null;
  #smallText: string | null = null;
  #smallUrl: string | null = null;
  #inviteCoverImage: string | null = null;

  largeImage(): string | null {
    return this.#largeImage;
  }
  /** An asset key or an image URL, ≤ 128 characters. */
  setLargeImage(value: string | null): void {
    this.#largeImage = checkText('ActivityAssets.largeImage', value);
  }
  largeText(): string | null {
    return this.#largeText;
  }
  setLargeText(value: string | null): void {
    this.#largeText = checkText('ActivityAssets.largeText', value);
  }
  largeUrl(): string | null {
    return this.#largeUrl;
  }
  /** Where clicking the large image leads: an http(s) URL ≤ 256 characters. */
  setLargeUrl(value: string | null): void {
    this.#largeUrl = checkUrl('ActivityAssets.largeUrl', value);
  }
  smallImage(): string | null {
    return this.#smallImage;
  }
  setSmallImage(value: string | null): void {
    this.#smallImage = checkText('ActivityAssets.smallImage', value);
  }
  smallText(): string | null {
    return this.#smallText;
  }
  setSmallText(value: string | null): void {
    this.#smallText = checkText('ActivityAssets.smallText', value);
  }
  smallUrl(): string | null {
    return this.#smallUrl;
  }
  setSmallUrl(value: string | null): void {
    this.#smallUrl = checkUrl('ActivityAssets.smallUrl', value);
  }
  /** The image an invite to the party shows. */
  inviteCoverImage(): string | null {
    return this.#inviteCoverImage;
  }
  setInviteCoverImage(value: string | null): void {
    this.#inviteCoverImage = checkText('ActivityAssets.inviteCoverImage', value);
  }

  /** @internal */
  toWire(): Record<string, string> {
    const out: Record<string, string> = {};
    const put = (key: string, value: string | null) => {
      if (value !== null) out[key] = value;
    };
    put('large_image', this.#largeImage);
    put('large_text', this.#largeText);
    put('large_url', this.#largeUrl);
    put('small_image', this.#smallImage);
    put('small_text', this.#smallText);
    put('small_url', this.#smallUrl);
    put('invite_cover_image', this.#inviteCoverImage);
    return out;
  }

  /** @internal */
  static fromWire(wire: Record<string, string | undefined>): ActivityAssets {
    const assets = new ActivityAssets();
    assets.#largeImage = wire['large_image'] ?? null;
    assets.#largeText = wire['large_text'] ?? null;
    assets.#largeUrl = wire['large_url'] ?? null;
    assets.#smallImage = wire['small_image'] ?? null;
    assets.#smallText = wire['small_text'] ?? null;
    assets.#smallUrl = wire['small_url'] ?? null;
    assets.#inviteCoverImage = wire['invite_cover_image'] ?? null;
    return assets;
  }
}

/** `ActivityTimestamps`: when the activity started and ends, in Unix milliseconds (0: unset). */
export class ActivityTimestamps {
  #start = 0;
  #end = 0;

  start(): number {
    return this.#start;
  }
  setStart(value: number): void {
    this.#start = checkWhole('ActivityTimestamps.start', value);
  }
  end(): number {
    return this.#end;
  }
  setEnd(value: number): void {
    this.#end = checkWhole('ActivityTimestamps.end', value);
  }

  /** @internal */
  toWire(): { start?: number; end?: number } {
    return {
      ...(this.#start > 0 ? { start: this.#start } : {}),
      ...(this.#end > 0 ? { end: this.#end } : {}),
    };
  }

  /** @internal */
  static fromWire(wire: { start?: number; end?: number }): ActivityTimestamps {
    const timestamps = new ActivityTimestamps();
    timestamps.#start = wire.start ?? 0;
    timestamps.#end = wire.end ?? 0;
    return timestamps;
  }
}

/** `ActivityParty`: the player's party: its id, its size and who may ask to join. */
export class ActivityParty {
  #id = '';
  #currentSize = 0;
  #maxSize = 0;
  #privacy: ActivityPartyPrivacy = ActivityPartyPrivacy.Private;

  id(): string {
    return this.#id;
  }
  /** The game's id of the party, 1–128 characters (invites name it). */
  setId(value: string): void {
    this.#id = checkText('ActivityParty.id', value) ?? '';
  }
  currentSize(): number {
    return this.#currentSize;
  }
  setCurrentSize(value: number): void {
    this.#currentSize = checkWhole('ActivityParty.currentSize', value);
  }
  /** The party's capacity; 0 leaves the size out. At least currentSize when set. */
  maxSize(): number {
    return this.#maxSize;
  }
  setMaxSize(value: number): void {
    this.#maxSize = checkWhole('ActivityParty.maxSize', value);
  }
  /** `Public`: anyone may join with an invite; `Private`: friends and those invited. */
  privacy(): ActivityPartyPrivacy {
    return this.#privacy;
  }
  setPrivacy(value: ActivityPartyPrivacy): void {
    this.#privacy = checkMember('ActivityParty.privacy', ActivityPartyPrivacy, value);
  }

  /** @internal */
  toWire(): NonNullable<WireActivity['party']> {
    if (this.#maxSize > 0 && this.#currentSize > this.#maxSize) {
      throw validationError(
        `ActivityParty: currentSize ${this.#currentSize} is more than maxSize ${this.#maxSize}.`,
      );
    }
    if (this.#maxSize === 0 && this.#currentSize > 0) {
      throw validationError('ActivityParty: set maxSize (at least 1) with currentSize.');
    }
    return {
      ...(this.#id === '' ? {} : { id: this.#id }),
      ...(this.#maxSize > 0
        ? { size: [this.#currentSize, this.#maxSize] as [number, number] }
        : {}),
      privacy: this.#privacy,
    };
  }

  /** @internal */
  static fromWire(wire: NonNullable<WireActivity['party']>): ActivityParty {
    const party = new ActivityParty();
    party.#id = wire.id ?? '';
    party.#currentSize = wire.size?.[0] ?? 0;
    party.#maxSize = wire.size?.[1] ?? 0;
    party.#privacy = (wire.privacy ?? ActivityPartyPrivacy.Private) as ActivityPartyPrivacy;
    return party;
  }
}

/** `ActivitySecrets`: the join secret invitees get (nobody sees it in the presence). */
export class ActivitySecrets {
  #join = '';

  join(): string {
    return this.#join;
  }
  /** ≤ 128 characters; what a player who accepts an invite receives to join the party. */
  setJoin(value: string): void {
    this.#join = checkText('ActivitySecrets.join', value) ?? '';
  }

  /** @internal */
  toWire(): { join?: string } {
    return this.#join === '' ? {} : { join: this.#join };
  }
}

/** `ActivityButton`: a link button on the rich presence (at most 2). */
export class ActivityButton {
  #label = '';
  #url = '';

  /** 1–32 characters. */
  label(): string {
    return this.#label;
  }
  setLabel(value: string): void {
    const label = checkText('ActivityButton.label', value, MAX_BUTTON_LABEL);
    if (label === null) throw validationError('ActivityButton.label is empty.');
    this.#label = label;
  }
  /** An http(s) URL of 1–512 characters (others see only the label; the URL goes in metadata). */
  url(): string {
    return this.#url;
  }
  setUrl(value: string): void {
    const url = checkUrl('ActivityButton.url', value, MAX_BUTTON_URL);
    if (url === null) throw validationError('ActivityButton.url is empty.');
    this.#url = url;
  }

  /** @internal A button as a presence shows it (its URL may be unknown: ''). */
  static of(label: string, url: string): ActivityButton {
    const button = new ActivityButton();
    button.#label = label;
    button.#url = url;
    return button;
  }
}

/**
 * `Activity`: a rich presence. Set what the game shows (state, details, party, assets…) and pass
 * it to `updateRichPresence`. Setters check the platform's limits and throw a ValidationError.
 */
export class Activity {
  #name = '';
  #type: ActivityTypes = ActivityTypes.Playing;
  #state: string | null = null;
  #stateUrl: string | null = null;
  #details: string | null = null;
  #detailsUrl: string | null = null;
  #statusDisplayType: StatusDisplayTypes | null = null;
  #applicationId: string | null = null;
  #assets: ActivityAssets | null = null;
  #timestamps: ActivityTimestamps | null = null;
  #party: ActivityParty | null = null;
  #secrets: ActivitySecrets | null = null;
  #buttons: ActivityButton[] = [];
  #supportedPlatforms: ActivityGamePlatforms = ActivityGamePlatforms.Desktop;
  #parentApplicationId: string | null = null;

  /**
   * The activity's name, 1–128 characters. Left empty, updateRichPresence uses the
   * application's name.
   */
  name(): string {
    return this.#name;
  }
  setName(value: string): void {
    this.#name = checkText('Activity.name', value, MAX_NAME) ?? '';
  }
  type(): ActivityTypes {
    return this.#type;
  }
  /** Playing, Streaming, Listening, Watching, CustomStatus or Competing. */
  setType(value: ActivityTypes): void {
    checkMember('Activity.type', ActivityTypes, value);
    if (value === ActivityTypes.HangStatus) {
      throw validationError('Activity.type: HangStatus is not available on this platform.');
    }
    this.#type = value;
  }
  state(): string | null {
    return this.#state;
  }
  /** The player's current party status, ≤ 128 characters. */
  setState(value: string | null): void {
    this.#state = checkText('Activity.state', value);
  }
  stateUrl(): string | null {
    return this.#stateUrl;
  }
  setStateUrl(value: string | null): void {
    this.#stateUrl = checkUrl('Activity.stateUrl', value);
  }
  details(): string | null {
    return this.#details;
  }
  /** What the player is doing, ≤ 128 characters. */
  setDetails(value: string | null): void {
    this.#details = checkText('Activity.details', value);
  }
  detailsUrl(): string | null {
    return this.#detailsUrl;
  }
  setDetailsUrl(value: string | null): void {
    this.#detailsUrl = checkUrl('Activity.detailsUrl', value);
  }
  statusDisplayType(): StatusDisplayTypes | null {
    return this.#statusDisplayType;
  }
  /** Which field shows after the player's name: the name, the state or the details. */
  setStatusDisplayType(value: StatusDisplayTypes | null): void {
    this.#statusDisplayType =
      value === null ? null : checkMember('Activity.statusDisplayType', StatusDisplayTypes, value);
  }
  /** The application of a received activity (the platform sets it; a game's own is ignored). */
  applicationId(): string | null {
    return this.#applicationId;
  }
  assets(): ActivityAssets | null {
    return this.#assets;
  }
  setAssets(value: ActivityAssets | null): void {
    this.#assets = value;
  }
  timestamps(): ActivityTimestamps | null {
    return this.#timestamps;
  }
  setTimestamps(value: ActivityTimestamps | null): void {
    this.#timestamps = value;
  }
  party(): ActivityParty | null {
    return this.#party;
  }
  setParty(value: ActivityParty | null): void {
    this.#party = value;
  }
  /** The player's own secrets; a received activity has none (nobody sees them). */
  secrets(): ActivitySecrets | null {
    return this.#secrets;
  }
  setSecrets(value: ActivitySecrets | null): void {
    this.#secrets = value;
  }
  /** Where the activity's join invites can be accepted (ActivityGamePlatforms flags; Desktop). */
  supportedPlatforms(): ActivityGamePlatforms {
    return this.#supportedPlatforms;
  }
  setSupportedPlatforms(value: ActivityGamePlatforms): void {
    const all = ACTIVITY_GAME_PLATFORM_WIRE.reduce((bits, [bit]) => bits | bit, 0);
    if (!Number.isInteger(value) || value <= 0 || (value & ~all) !== 0) {
      throw validationError('Activity.setSupportedPlatforms: not a set of ActivityGamePlatforms.');
    }
    this.#supportedPlatforms = value;
  }
  /**
   * The publisher's parent application of the game, for invites across a publisher's games;
   * the platform keeps it only when the parent approved a link to this application.
   */
  parentApplicationId(): string | null {
    return this.#parentApplicationId;
  }
  setParentApplicationId(value: string | null): void {
    this.#parentApplicationId =
      value === null ? null : checkUserId('Activity.setParentApplicationId', value);
  }

  getButtons(): ActivityButton[] {
    return [...this.#buttons];
  }
  /** Adds a link button (at most 2). */
  addButton(button: ActivityButton): void {
    if (this.#buttons.length >= MAX_BUTTONS) {
      throw validationError(`Activity: at most ${MAX_BUTTONS} buttons.`);
    }
    if (button.label() === '' || button.url() === '') {
      throw validationError("Activity.addButton: set the button's label and URL first.");
    }
    this.#buttons.push(button);
  }

  /** Whether two activities publish the same thing. */
  equals(other: Activity): boolean {
    return JSON.stringify(this.toWire()) === JSON.stringify(other.toWire());
  }

  /** @internal The op 3 activity (empty members left out, as the platform drops them). */
  toWire(): WireActivity {
    const wire: WireActivity = { name: this.#name, type: this.#type };
    if (this.#state !== null) wire.state = this.#state;
    if (this.#stateUrl !== null) (wire as { state_url?: string }).state_url = this.#stateUrl;
    if (this.#details !== null) wire.details = this.#details;
    if (this.#detailsUrl !== null) wire.details_url = this.#detailsUrl;
    if (this.#statusDisplayType !== null) wire.status_display_type = this.#statusDisplayType;
    const timestamps = this.#timestamps?.toWire();
    if (timestamps !== undefined && Object.keys(timestamps).length > 0)
      wire.timestamps = timestamps;
    const assets = this.#assets?.toWire();
    if (assets !== undefined && Object.keys(assets).length > 0) wire.assets = assets;
    if (this.#party !== null) wire.party = this.#party.toWire();
    const secrets = this.#secrets?.toWire();
    if (secrets !== undefined && Object.keys(secrets).length > 0) wire.secrets = secrets;
    if (this.#buttons.length > 0) {
      wire.buttons = this.#buttons.map((b) => ({ label: b.label(), url: b.url() }));
    }
    if (this.#supportedPlatforms !== ActivityGamePlatforms.Desktop) {
      wire.supported_platforms = ACTIVITY_GAME_PLATFORM_WIRE.filter(
        ([bit]) => (this.#supportedPlatforms & bit) !== 0,
      ).map(([, name]) => name);
    }
    if (this.#parentApplicationId !== null) {
      wire.parent_application_id = this.#parentApplicationId;
    }
    return wire;
  }

  /** @internal An activity as a presence shows it (buttons' URLs from `metadata`). */
  static fromWire(wire: WireActivity): Activity {
    const activity = new Activity();
    activity.#name = wire.name;
    activity.#type = wire.type as ActivityTypes;
    activity.#state = wire.state ?? null;
    activity.#stateUrl = (wire as { state_url?: string | null }).state_url ?? null;
    activity.#details = wire.details ?? null;
    activity.#detailsUrl = wire.details_url ?? null;
    activity.#statusDisplayType = (wire.status_display_type ?? null) as StatusDisplayTypes | null;
    activity.#applicationId = wire.application_id ?? null;
    if (wire.assets !== undefined) activity.#assets = ActivityAssets.fromWire(wire.assets);
    if (wire.timestamps !== undefined) {
      activity.#timestamps = ActivityTimestamps.fromWire(wire.timestamps);
    }
    if (wire.party !== undefined) activity.#party = ActivityParty.fromWire(wire.party);
    if (wire.secrets?.join !== undefined) {
      activity.#secrets = new ActivitySecrets();
      activity.#secrets.setJoin(wire.secrets.join);
    }
    const platforms = ACTIVITY_GAME_PLATFORM_WIRE.filter(([, name]) =>
      wire.supported_platforms?.includes(name),
    ).reduce((bits, [bit]) => bits | bit, 0);
    if (platforms !== 0) activity.#supportedPlatforms = platforms;
    activity.#parentApplicationId = wire.parent_application_id ?? null;
    const urls = wire.metadata?.button_urls ?? [];
    activity.#buttons = (wire.buttons ?? []).map((button, index) =>
      typeof button === 'string'
        ? ActivityButton.of(button, urls[index] ?? '')
        : ActivityButton.of(button.label, button.url),
    );
    return activity;
  }
}

/**
 * `ActivityInvite`: an invite to join a player's party, received as a DM message (or made by the
 * game to accept one it learnt of elsewhere: set the sender and the party id at least).
 */
export class ActivityInvite {
  #senderId = '';
  #channelId = '';
  #messageId = '';
  #type: ActivityActionTypes = ActivityActionTypes.Join;
  #applicationId = '';
  #partyId = '';
  #sessionId = '';
  #isValid = true;

  /** Who invites (whose party it is). */
  senderId(): string {
    return this.#senderId;
  }
  setSenderId(value: string): void {
    this.#senderId = checkUserId('ActivityInvite.setSenderId', value);
  }
  /** The DM the invite was sent in ('' when unknown). */
  channelId(): string {
    return this.#channelId;
  }
  setChannelId(value: string): void {
    this.#channelId = value === '' ? '' : checkUserId('ActivityInvite.setChannelId', value);
  }
  /** The invite's message ('' when unknown). */
  messageId(): string {
    return this.#messageId;
  }
  setMessageId(value: string): void {
    this.#messageId = value === '' ? '' : checkUserId('ActivityInvite.setMessageId', value);
  }
  type(): ActivityActionTypes {
    return this.#type;
  }
  setType(value: ActivityActionTypes): void {
    this.#type = checkMember('ActivityInvite.type', ActivityActionTypes, value);
  }
  applicationId(): string {
    return this.#applicationId;
  }
  setApplicationId(value: string): void {
    this.#applicationId = value === '' ? '' : checkUserId('ActivityInvite.setApplicationId', value);
  }
  partyId(): string {
    return this.#partyId;
  }
  setPartyId(value: string): void {
    this.#partyId = checkText('ActivityInvite.partyId', value) ?? '';
  }
  /** The inviter's session; this platform does not name one ('' unless set). */
  sessionId(): string {
    return this.#sessionId;
  }
  setSessionId(value: string): void {
    this.#sessionId = value;
  }
  /**
   * Whether the invite can still be accepted as far as the client knows: false once the
   * inviter's presence no longer shows the party, or the invite message was deleted.
   */
  isValid(): boolean {
    return this.#isValid;
  }
  setIsValid(value: boolean): void {
    this.#isValid = value;
  }

  /** @internal */
  static of(fields: {
    senderId: string;
    channelId: string;
    messageId: string;
    type: ActivityActionTypes;
    applicationId: string;
    partyId: string;
    isValid: boolean;
  }): ActivityInvite {
    const invite = new ActivityInvite();
    invite.#senderId = fields.senderId;
    invite.#channelId = fields.channelId;
    invite.#messageId = fields.messageId;
    invite.#type = fields.type;
    invite.#applicationId = fields.applicationId;
    invite.#partyId = fields.partyId;
    invite.#isValid = fields.isValid;
    return invite;
  }
}

/** `Client::ActivityInviteCallback`. */
export type ActivityInviteCallback = (invite: ActivityInvite) => void;
/** `Client::ActivityJoinCallback`: the join secret of the party to join. */
export type ActivityJoinCallback = (joinSecret: string) => void;
/** `Client::ActivityJoinWithApplicationCallback`. */
export type ActivityJoinWithApplicationCallback = (
  applicationId: string,
  joinSecret: string,
) => void;

/** The ACTIVITY_JOIN dispatch and the join route's answer. */
interface WireActivityJoin {
  secret: string;
  application_id: string;
  party_id: string;
  user_id: string;
  channel_id?: string;
  message_id?: string;
}

const WIRE_STATUS: Partial<Record<StatusType, string>> = {
  [StatusType.Online]: 'online',
  [StatusType.Idle]: 'idle',
  [StatusType.Dnd]: 'dnd',
  [StatusType.Invisible]: 'invisible',
  [StatusType.Offline]: 'invisible',
};

export class PresenceArea {
  protected readonly core: ClientCore;
  /** The status op 3 sends (setOnlineStatus), online by default. */
  #status = 'online';
  /** The published activity (op 3 form, with its secrets), or null. */
  #activity: WireActivity | null = null;
  #applicationName: string | null = null;
  #inviteCreated: ActivityInviteCallback | null = null;
  #inviteUpdated: ActivityInviteCallback | null = null;
  #join: ActivityJoinCallback | null = null;
  #joinWithApplication: ActivityJoinWithApplicationCallback | null = null;
  /** Invites received, by message id, with whether each is still valid. */
  readonly #invites = new Map<string, ActivityInvite>();
  /** Accepts this client made whose ACTIVITY_JOIN has not arrived: `party\nuser`. */
  readonly #accepting = new Set<string>();

  constructor(core: ClientCore) {
    this.core = core;
    const sync = socialSync(core);
    // After each READY the player is shown online (or the status set) with the rich presence
    // set before: the platform keeps no presence of a new session.
    sync.ready.push(() => {
      queueMicrotask(() => {
        if (core.ready) this.#publish();
      });
    });
    sync.presenceChanged.push((userId) => {
      this.#revalidate(userId);
    });
    core.on('MESSAGE_CREATE', (data) => {
      this.#onMessage(data as WireMessage & { application?: { id: string }; guild_id?: string });
    });
    core.on('MESSAGE_DELETE', (data) => {
      const { id } = data as { id: string };
      const invite = this.#invites.get(id);
      if (invite === undefined) return;
      this.#invites.delete(id);
      if (invite.isValid()) {
        invite.setIsValid(false);
        core.invoke(this.#inviteUpdated, invite);
      }
    });
    core.on('ACTIVITY_JOIN', (data) => {
      this.#onJoin(data as WireActivityJoin);
    });
    // Someone asks to join the player's party: an invite of type JoinRequest, answered with
    // sendActivityJoinRequestReply.
    core.on('ACTIVITY_JOIN_REQUEST', (data) => {
      const request = data as { user: WireUser; application_id: string; party_id: string };
      core.state.cacheUser(request.user);
      core.invoke(
        this.#inviteCreated,
        ActivityInvite.of({
          senderId: request.user.id,
          channelId: '',
          messageId: '',
          type: ActivityActionTypes.JoinRequest,
          applicationId: request.application_id,
          partyId: request.party_id,
          isValid: true,
        }),
      );
    });
  }

  /**
   * Publishes the player's rich presence (gateway op 3) to their friends; a new call replaces it
   * (so a party's new size or privacy reaches them). Before the client is ready it is kept and
   * published at READY. An empty name becomes the application's name (`GET /oauth2/@me`).
   */
  async updateRichPresence(activity: Activity): Promise<void> {
    if (!(activity instanceof Activity)) {
      throw validationError('updateRichPresence: pass an Activity.');
    }
    const wire = activity.toWire();
    if (wire.name === '') wire.name = await this.#defaultName();
    this.#activity = wire;
    if (this.core.ready) this.#publish();
  }

  /** Removes the player's rich presence (op 3 without activities). */
  clearRichPresence(): void {
    this.#activity = null;
    if (this.core.ready) this.#publish();
  }

  /**
   * Sets the player's status: Online, Idle, Dnd, or Invisible (Offline is Invisible: shown offline
   * while connected). Sent with op 3, and again after each reconnect.
   */
  setOnlineStatus(status: StatusType): Promise<void> {
    const wire = WIRE_STATUS[status];
    if (wire === undefined) {
      return Promise.reject(
        validationError(
          `setOnlineStatus: ${String(status)} cannot be set; use Online, Idle, Dnd or Invisible.`,
        ),
      );
    }
    this.#status = wire;
    if (this.core.ready) this.#publish();
    return Promise.resolve();
  }

  /**
   * Invites a user to the player's party: a DM message with `activity: {type: 1, party_id}`
   * (POST /users/{id}/messages). The rich presence must have a party id and a join secret.
   */
  async sendActivityInvite(userId: string, content: string): Promise<void> {
    const id = checkUserId('sendActivityInvite', userId);
    if (typeof content !== 'string' || content.length > MAX_CONTENT) {
      throw validationError(
        `sendActivityInvite: the content must be a string of at most ${MAX_CONTENT} characters.`,
      );
    }
    const partyId = this.#activity?.party?.id;
    if (partyId === undefined || this.#activity?.secrets?.join === undefined) {
      throw validationError(
        'sendActivityInvite: the rich presence has no party to join: updateRichPresence with a party id and a join secret first.',
      );
    }
    await this.core.http.request('POST', `/users/${id}/messages`, {
      json: { content, activity: { type: ActivityActionTypes.Join, party_id: partyId } },
    });
  }

  /**
   * Asks a user to let the player into the party of their rich presence in this game
   * (POST /users/@me/activities/{party_id}/join-request): they get an ActivityInvite of type
   * JoinRequest, and answer with an invite. The client must see the party (a friend's presence).
   */
  async sendActivityJoinRequest(userId: string): Promise<void> {
    const id = checkUserId('sendActivityJoinRequest', userId);
    const own = this.#ownApplication();
    const partyId = this.core.state.presences
      .get(id)
      ?.activities.find(
        (a) => a.party?.id !== undefined && (own === null || a.application_id === own),
      )?.party?.id;
    if (partyId === undefined) {
      throw validationError(
        'sendActivityJoinRequest: the user is in no party of this game that the player can see.',
      );
    }
    await this.core.http.request(
      'POST',
      `/users/@me/activities/${encodeURIComponent(partyId)}/join-request`,
      { json: { user_id: id } },
    );
  }

  /** Lets the sender of a join request in: an activity invite to the player's party. */
  async sendActivityJoinRequestReply(invite: ActivityInvite): Promise<void> {
    if (!(invite instanceof ActivityInvite) || invite.type() !== ActivityActionTypes.JoinRequest) {
      throw validationError(
        'sendActivityJoinRequestReply: pass the ActivityInvite of type JoinRequest received.',
      );
    }
    await this.sendActivityInvite(invite.senderId(), '');
  }

  /**
   * Accepts an invite (POST /users/@me/activities/{party_id}/join) and resolves with the party's
   * join secret. The player's other sessions in this game get ACTIVITY_JOIN too.
   */
  async acceptActivityInvite(invite: ActivityInvite): Promise<string> {
    if (
      !(invite instanceof ActivityInvite) ||
      invite.senderId() === '' ||
      invite.partyId() === ''
    ) {
      throw validationError(
        'acceptActivityInvite: pass an ActivityInvite with its sender and party id.',
      );
    }
    const key = `${invite.partyId()}\n${invite.senderId()}`;
    this.#accepting.add(key);
    try {
      const join = await this.core.http.request<WireActivityJoin>(
        'POST',
        `/users/@me/activities/${encodeURIComponent(invite.partyId())}/join`,
        {
          json: {
            user_id: invite.senderId(),
            ...(invite.channelId() === '' ? {} : { channel_id: invite.channelId() }),
            ...(invite.messageId() === '' ? {} : { message_id: invite.messageId() }),
          },
        },
      );
      return join.secret;
    } catch (error) {
      this.#accepting.delete(key);
      throw error;
    }
  }

  /**
   * Called when an invite to this game arrives in a DM, and when the player accepted an invite
   * on another device (from ACTIVITY_JOIN; that invite carries what the accept named).
   */
  setActivityInviteCreatedCallback(callback: ActivityInviteCallback | null): void {
    this.#inviteCreated = callback;
  }

  /** Called when a received invite's validity changes (the party went, the message was deleted). */
  setActivityInviteUpdatedCallback(callback: ActivityInviteCallback | null): void {
    this.#inviteUpdated = callback;
  }

  /** Called with the join secret when the player joins a party (accepted here or elsewhere). */
  setActivityJoinCallback(callback: ActivityJoinCallback | null): void {
    this.#join = callback;
  }

  /** As setActivityJoinCallback, with the party's application. */
  setActivityJoinWithApplicationCallback(
    callback: ActivityJoinWithApplicationCallback | null,
  ): void {
    this.#joinWithApplication = callback;
  }

  #publish(): void {
    const sent = this.core.gateway.send(PRESENCE_UPDATE_OP, {
      since: null,
      afk: false,
      status: this.#status,
      activities: this.#activity === null ? [] : [this.#activity],
    });
    if (!sent) throw notReadyError('updateRichPresence');
    const me = this.core.state.currentUser;
    if (me === null) return;
    const applicationId = this.core.state.applicationId;
    // What friends see: everything but the secrets.
    const shown: WireActivity = { ...(this.#activity ?? { name: '', type: 0 }) };
    delete shown.secrets;
    this.core.state.presences.set(me.id, {
      user: { id: me.id },
      status: this.#status,
      activities:
        this.#activity === null
          ? []
          : [{ ...shown, ...(applicationId === null ? {} : { application_id: applicationId }) }],
    });
  }

  async #defaultName(): Promise<string> {
    if (this.#applicationName === null) {
      const me = await this.core.http.get<{ application: { name: string } }>('/oauth2/@me');
      this.#applicationName = me.application.name.slice(0, MAX_NAME);
    }
    return this.#applicationName;
  }

  #ownApplication(): string | null {
    return this.core.state.applicationId ?? this.core.applicationId;
  }

  /** Whether the inviter's presence (when the client sees it) still shows the party. */
  #stillValid(senderId: string, partyId: string, applicationId: string): boolean {
    const presence = this.core.state.presences.get(senderId);
    const pair = this.core.state.relationships.get(senderId);
    const seen = presence !== undefined || pair?.discord?.type === 1 || pair?.game?.type === 1;
    if (!seen) return true;
    return (presence?.activities ?? []).some(
      (a) => a.party?.id === partyId && a.application_id === applicationId,
    );
  }

  #onMessage(message: WireMessage & { application?: { id: string }; guild_id?: string }): void {
    if (message.activity?.party_id === undefined || message.guild_id !== undefined) return;
    const me = this.core.state.currentUser;
    if (me === null || message.author.id === me.id) return;
    const applicationId = message.application_id ?? message.application?.id ?? '';
    const own = this.#ownApplication();
    if (own !== null && applicationId !== own) return;
    const invite = ActivityInvite.of({
      senderId: message.author.id,
      channelId: message.channel_id,
      messageId: message.id,
      type: message.activity.type as ActivityActionTypes,
      applicationId,
      partyId: message.activity.party_id,
      isValid: this.#stillValid(message.author.id, message.activity.party_id, applicationId),
    });
    this.#invites.set(message.id, invite);
    if (this.#invites.size > MAX_KEPT_INVITES) {
      const oldest = this.#invites.keys().next();
      if (oldest.done !== true) this.#invites.delete(oldest.value);
    }
    this.core.invoke(this.#inviteCreated, invite);
  }

  #revalidate(userId: string): void {
    for (const invite of this.#invites.values()) {
      if (invite.senderId() !== userId) continue;
      const valid = this.#stillValid(userId, invite.partyId(), invite.applicationId());
      if (valid === invite.isValid()) continue;
      invite.setIsValid(valid);
      this.core.invoke(this.#inviteUpdated, invite);
    }
  }

  #onJoin(join: WireActivityJoin): void {
    const key = `${join.party_id}\n${join.user_id}`;
    if (!this.#accepting.delete(key)) {
      // Accepted on another device: the game hears of the invite it answered.
      this.core.invoke(
        this.#inviteCreated,
        ActivityInvite.of({
          senderId: join.user_id,
          channelId: join.channel_id ?? '',
          messageId: join.message_id ?? '',
          type: ActivityActionTypes.Join,
          applicationId: join.application_id,
          partyId: join.party_id,
          isValid: true,
        }),
      );
    }
    this.core.invoke(this.#join, join.secret);
    this.core.invoke(this.#joinWithApplication, join.application_id, join.secret);
  }
}
