/**
 * `Activity` (what rich presence shows, with its parts from activityParts.ts) and
 * `ActivityInvite` (an invite to a party, received as a DM message): the values the presence area
 * (presence.ts) sends and receives (docs/social-presence.md).
 *
 * @module
 */
import {
  ACTIVITY_GAME_PLATFORM_WIRE,
  ActivityActionTypes,
  ActivityGamePlatforms,
  ActivityTypes,
  StatusDisplayTypes,
} from './enums.js';
import { validationError } from './errors.js';
import type { WireActivity } from './wire.js';
import {
  ActivityAssets,
  ActivityButton,
  ActivityParty,
  ActivitySecrets,
  ActivityTimestamps,
  MAX_BUTTONS,
  MAX_NAME,
  checkMember,
  checkText,
  checkUrl,
  checkUserId,
} from './activityParts.js';

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
