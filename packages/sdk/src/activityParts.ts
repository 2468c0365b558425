/**
 * The parts of an `Activity` (activity.ts): `ActivityAssets`, `ActivityTimestamps`,
 * `ActivityParty`, `ActivitySecrets`, `ActivityButton`, each setter checking the platform's limits
 * (docs/social-presence.md), and the checks Activity shares with them.
 *
 * @module
 */
import { ActivityPartyPrivacy } from './enums.js';
import { validationError } from './errors.js';
import type { WireActivity } from './wire.js';

/** The platform's limits of an activity's fields (docs/gateway.md, Presence). */
export const MAX_NAME = 128;
export const MAX_TEXT = 128;
export const MAX_URL = 256;
export const MAX_BUTTONS = 2;
export const MAX_BUTTON_LABEL = 32;
export const MAX_BUTTON_URL = 512;

const SNOWFLAKE = /^\d{1,20}$/;

/** A user id argument: a snowflake string. @internal */
export function checkUserId(operation: string, userId: string): string {
  if (typeof userId !== 'string' || !SNOWFLAKE.test(userId)) {
    throw validationError(`${operation}: ${JSON.stringify(userId)} is not a user id.`);
  }
  return userId;
}

export function checkText(what: string, value: string | null, max = MAX_TEXT): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') throw validationError(`${what} must be a string or null.`);
  if (value.length > max) {
    throw validationError(`${what} is longer than ${max} characters: shorten it.`);
  }
  return value === '' ? null : value;
}

export function checkUrl(what: string, value: string | null, max = MAX_URL): string | null {
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

export function checkWhole(what: string, value: number, min = 0): number {
  if (!Number.isSafeInteger(value) || value < min) {
    throw validationError(`${what} must be a whole number of at least ${min}.`);
  }
  return value;
}

export function checkMember<T extends number>(
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
