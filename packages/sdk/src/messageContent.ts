/**
 * `AdditionalContent`: what a message carries besides its text (attachments, a poll, a voice
 * message, a thread, embeds, stickers), so a game that shows only text can say what it leaves
 * out ("sent 2 attachments, view them in the client").
 *
 * @module
 */
import type { WireMessage } from './wire.js';

/** `AdditionalContentType`: the kind of non-text content a message carries. */
export const AdditionalContentType = {
  Other: 0,
  Attachment: 1,
  Poll: 2,
  VoiceMessage: 3,
  Thread: 4,
  Embed: 5,
  Sticker: 6,
} as const;
export type AdditionalContentType =
  (typeof AdditionalContentType)[keyof typeof AdditionalContentType];

/** The message flag of a voice message. */
const IS_VOICE_MESSAGE = 1 << 13;
/** The count is a uint8 in the reference SDK. */
const MAX_COUNT = 255;

/** The parts of a message's wire form that are not text. */
export interface WireMessageExtras {
  attachments?: { filename?: string }[];
  embeds?: { title?: string }[];
  sticker_items?: { name?: string }[];
  poll?: { question?: { text?: string } };
  thread?: { name?: string };
}

export class AdditionalContent {
  readonly #type: AdditionalContentType;
  readonly #title: string | null;
  readonly #count: number;

  constructor(type: AdditionalContentType, title: string | null, count: number) {
    this.#type = type;
    this.#title = title;
    this.#count = Math.min(MAX_COUNT, Math.max(0, count));
  }

  type(): AdditionalContentType {
    return this.#type;
  }

  /** The poll's question, the thread's name, the first embed's title or sticker's name. */
  title(): string | null {
    return this.#title;
  }

  /** How many items of the kind (attachments, embeds, stickers); 1 for a poll or a thread. */
  count(): number {
    return this.#count;
  }
}

/** What the message carries besides text, the first kind that applies; null when only text. */
export function additionalContentOf(
  message: WireMessage & WireMessageExtras,
): AdditionalContent | null {
  const attachments = message.attachments ?? [];
  if (((message.flags ?? 0) & IS_VOICE_MESSAGE) !== 0) {
    return new AdditionalContent(AdditionalContentType.VoiceMessage, null, attachments.length);
  }
  if (message.poll !== undefined) {
    return new AdditionalContent(
      AdditionalContentType.Poll,
      message.poll.question?.text ?? null,
      1,
    );
  }
  if (attachments.length > 0) {
    return new AdditionalContent(AdditionalContentType.Attachment, null, attachments.length);
  }
  const stickers = message.sticker_items ?? [];
  if (stickers.length > 0) {
    const name = stickers[0]?.name ?? null;
    return new AdditionalContent(AdditionalContentType.Sticker, name, stickers.length);
  }
  const embeds = message.embeds ?? [];
  if (embeds.length > 0) {
    const title = embeds[0]?.title ?? null;
    return new AdditionalContent(AdditionalContentType.Embed, title, embeds.length);
  }
  if (message.thread !== undefined) {
    return new AdditionalContent(AdditionalContentType.Thread, message.thread.name ?? null, 1);
  }
  return null;
}
