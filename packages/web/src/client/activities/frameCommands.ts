/**
 * The frame protocol's commands beyond the core (frameProtocol.ts): the store (SKUs,
 * entitlements, purchases), users, invites and sharing (links, images, moments), the client's
 * config, the proxy ticket, and the quest commands, answered as the platform answers an app with no quests. Each
 * answer has the shape the SDK's zod schemas accept (`@discord/embedded-app-sdk` 2.5.0,
 * src/schema, src/generated).
 *
 * @module
 */
import { RpcErrorCodes } from '@guildhall/protocol';
import {
  FrameCommandError,
  invalid,
  isExternalUrl,
  isRecord,
  stringArg,
  type Args,
} from './frameArgs.js';

/** A SKU as GET_SKUS_EMBEDDED lists it (the SDK's Sku). */
export interface SdkSku {
  id: string;
  name: string;
  type: number;
  price: { amount: number; currency: string };
  application_id: string;
  flags: number;
  release_date: string | null;
}

/** An entitlement as the SDK reads it (its Entitlement). */
export interface SdkEntitlement {
  id: string;
  sku_id: string;
  application_id: string;
  user_id: string;
  gift_code_flags: number;
  type: number;
  starts_at: string | null;
  ends_at: string | null;
  consumed: boolean;
  deleted: boolean;
}

/** SHARE_LINK's answer. */
export interface ShareLinkResult {
  success: boolean;
  didCopyLink: boolean;
  didSendMessage: boolean;
}

/** What the client does for these commands; each may throw a FrameCommandError. */
export interface EmbeddedAbilities {
  /** The application's SKUs on sale. */
  skus(): Promise<SdkSku[]>;
  /** The person's entitlements to the application. */
  entitlements(): Promise<SdkEntitlement[]>;
  /** The purchase dialog: the entitlements bought, or null when the person closes it. */
  purchase(skuId: string): Promise<SdkEntitlement[] | null>;
  /** A user the client knows, in the SDK's User shape, or null. */
  user(userId: string): unknown;
  /** Opens the invite dialog for the activity's channel (needs CREATE_INSTANT_INVITE). */
  inviteDialog(): Promise<void>;
  /** Sends a user an invite to the activity in a DM. */
  inviteUser(userId: string, content: string | null): Promise<void>;
  /** The share dialog for a link to the activity with the app's message. */
  shareLink(request: { message: string; customId: string | null }): Promise<ShareLinkResult>;
  /** A new proxy ticket for the person and the app (what the proxy host signs requests with). */
  proxyTicket(): Promise<string>;
  /** Whether the browser renders with the GPU (a WebGL context can be had). */
  hardwareAcceleration(): boolean;
  /** The image dialog and the upload: the image's URL, or null when the person cancels. */
  uploadImage(): Promise<string | null>;
  /** The moment dialog: the media's link sent where the person picks (or nowhere). */
  shareMoment(mediaUrl: string): Promise<void>;
  /** Runs the app's command for the person in the activity's channel: whether it answered. */
  shareInteraction(request: {
    command: string;
    options: { name: string; value: string }[];
  }): Promise<boolean>;
}

/** What a command may use of its frame. */
export interface CommandFrame {
  abilities: EmbeddedAbilities;
  guildId: string | null;
  requireScope(scope: string): void;
  dispatch(evt: string, data: unknown): void;
}

type Command = (frame: CommandFrame, args: Args) => unknown;

/** A string of at most `max` characters, or null when absent. */
function boundedString(args: Args, name: string, max: number): string | null {
  const value = args[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max) {
    throw invalid(`${name} must be a string of at most ${String(max)} characters`);
  }
  return value;
}

async function startPurchase(frame: CommandFrame, args: Args) {
  const skuId = stringArg(args, 'sku_id');
  const bought = await frame.abilities.purchase(skuId);
  // The client tells the app about what was bought as the platform does: ENTITLEMENT_CREATE.
  for (const entitlement of bought ?? []) frame.dispatch('ENTITLEMENT_CREATE', { entitlement });
  return bought;
}

function getUser(frame: CommandFrame, args: Args) {
  frame.requireScope('identify');
  const id = boundedString(args, 'id', 64);
  if (id === null) throw invalid('id must be a string');
  return frame.abilities.user(id) ?? null;
}

async function openInviteDialog(frame: CommandFrame) {
  if (frame.guildId === null) {
    throw new FrameCommandError(RpcErrorCodes.INVALID_CHANNEL, 'Invites need a guild channel');
  }
  await frame.abilities.inviteDialog();
  return null;
}

async function inviteUserEmbedded(frame: CommandFrame, args: Args) {
  const userId = stringArg(args, 'user_id');
  const content = boundedString(args, 'content', 1024);
  await frame.abilities.inviteUser(userId, content);
  return null;
}

function shareLink(frame: CommandFrame, args: Args) {
  const message = boundedString(args, 'message', 1000);
  if (message === null) throw invalid('message must be a string');
  boundedString(args, 'link_id', 64);
  return frame.abilities.shareLink({ message, customId: boundedString(args, 'custom_id', 64) });
}

async function initiateImageUpload(frame: CommandFrame) {
  const imageUrl = await frame.abilities.uploadImage();
  // `{image_url}` is the only answer the SDK's schema takes: a cancel is an error.
  if (imageUrl === null) {
    throw new FrameCommandError(RpcErrorCodes.UNKNOWN_ERROR, 'The upload was cancelled');
  }
  return { image_url: imageUrl };
}

async function openShareMomentDialog(frame: CommandFrame, args: Args) {
  const mediaUrl = boundedString(args, 'mediaUrl', 1024);
  if (mediaUrl === null || !isExternalUrl(mediaUrl)) {
    throw invalid('mediaUrl must be an http or https URL of at most 1024 characters');
  }
  await frame.abilities.shareMoment(mediaUrl);
  return null;
}

/** SHARE_INTERACTION's options: `[{name, value}]`, both strings. */
function interactionOptions(args: Args): { name: string; value: string }[] {
  const raw = args['options'] ?? [];
  const valid =
    Array.isArray(raw) &&
    raw.every(
      (o) => isRecord(o) && typeof o['name'] === 'string' && typeof o['value'] === 'string',
    );
  if (!valid) throw invalid('options must be a list of {name, value} strings');
  return (raw as { name: string; value: string }[]).map(({ name, value }) => ({ name, value }));
}

/**
 * The app's command, run in the launch channel (which also meets `require_launch_channel`).
 * `content` is checked; it, `preview_image` and `components` are not used (docs/activities.md).
 */
async function shareInteraction(frame: CommandFrame, args: Args) {
  const command = boundedString(args, 'command', 100);
  if (command === null || command.trim() === '') throw invalid('command must be a string');
  boundedString(args, 'content', 2000);
  const success = await frame.abilities.shareInteraction({
    command: command.trim(),
    options: interactionOptions(args),
  });
  return { success };
}

function setConfig(_frame: CommandFrame, args: Args) {
  const pip = args['use_interactive_pip'];
  if (typeof pip !== 'boolean') throw invalid('use_interactive_pip must be a boolean');
  // The web client shows one activity, never in picture-in-picture: the setting is kept as given.
  return { use_interactive_pip: pip };
}

/** A new ticket, as the platform's client answers; any failure is its UNKNOWN_ERROR. */
async function refreshProxyTicket(frame: CommandFrame) {
  try {
    return { ticket: await frame.abilities.proxyTicket() };
  } catch {
    throw new FrameCommandError(RpcErrorCodes.UNKNOWN_ERROR, 'Failed to create proxy ticket');
  }
}

/** The quests of the app: it has none here, so nothing is enrolled and no timer starts. */
function questId(args: Args): string {
  return stringArg(args, 'quest_id');
}

/** Every command this module answers, by name. */
export const EMBEDDED_COMMANDS: Record<string, Command> = {
  GET_SKUS_EMBEDDED: async (frame) => ({ skus: await frame.abilities.skus() }),
  GET_ENTITLEMENTS_EMBEDDED: async (frame) => ({
    entitlements: await frame.abilities.entitlements(),
  }),
  START_PURCHASE: startPurchase,
  GET_USER: getUser,
  OPEN_INVITE_DIALOG: openInviteDialog,
  INVITE_USER_EMBEDDED: inviteUserEmbedded,
  SHARE_LINK: shareLink,
  INITIATE_IMAGE_UPLOAD: initiateImageUpload,
  OPEN_SHARE_MOMENT_DIALOG: openShareMomentDialog,
  SHARE_INTERACTION: shareInteraction,
  SET_CONFIG: setConfig,
  ENCOURAGE_HW_ACCELERATION: (frame) => ({ enabled: frame.abilities.hardwareAcceleration() }),
  REQUEST_PROXY_TICKET_REFRESH: refreshProxyTicket,
  GET_QUEST: () => {
    throw new FrameCommandError(RpcErrorCodes.INVALID_PAYLOAD, 'The application has no quest');
  },
  GET_QUEST_ENROLLMENT_STATUS: (_frame, args) => ({
    quest_id: questId(args),
    is_enrolled: false,
    enrolled_at: null,
  }),
  QUEST_START_TIMER: (_frame, args) => {
    questId(args);
    return { success: false };
  },
};
