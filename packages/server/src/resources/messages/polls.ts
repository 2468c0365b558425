import { z } from 'zod';
import type { APIPoll } from 'discord-api-types/v10';
import { HOUR_MS } from '../../domain/time.js';
import { Snowflake } from '../../http/schemas.js';
import type { PollMediaRecord, PollRecord } from '../../storage/index.js';
import type { WireShape } from '../wireShape.js';

/**
 * Polls as part of a message (docs/polls.md): the `poll` of a create body, the poll record it
 * makes, and the `poll` of a message on the wire with its results.
 */

export const POLL_LIMITS = {
  question: 300,
  answerText: 55,
  answers: 10,
  /** Hours a poll may stay open: 32 days at most, 24 hours by default. */
  durationHours: { min: 1, max: 768, default: 24 },
} as const;

/** The one layout the platform has (DEFAULT). */
const DEFAULT_LAYOUT = 1;

const PollEmoji = z.object({
  id: Snowflake.nullable().optional(),
  name: z.string().max(32).nullable().optional(),
  animated: z.boolean().nullable().optional(),
});

/** POST /channels/{id}/messages' `poll` (PollCreateRequest). */
export const PollCreateBody = z.object({
  question: z.object({ text: z.string().trim().min(1).max(POLL_LIMITS.question) }),
  answers: z
    .array(
      z.object({
        poll_media: z.object({
          text: z.string().trim().min(1).max(POLL_LIMITS.answerText),
          emoji: PollEmoji.nullable().optional(),
        }),
      }),
    )
    .min(1)
    .max(POLL_LIMITS.answers),
  duration: z
    .number()
    .int()
    .min(POLL_LIMITS.durationHours.min)
    .max(POLL_LIMITS.durationHours.max)
    .nullable()
    .optional(),
  allow_multiselect: z.boolean().nullable().optional(),
  layout_type: z.literal(DEFAULT_LAYOUT).nullable().optional(),
});
export type PollCreateInput = z.infer<typeof PollCreateBody>;

function media(input: {
  text: string;
  emoji?: { id?: string | null; name?: string | null; animated?: boolean | null } | null;
}): PollMediaRecord {
  const emoji = input.emoji;
  return {
    text: input.text,
    ...(emoji == null
      ? {}
      : {
          emoji: {
            id: emoji.id ?? null,
            name: emoji.name ?? null,
            ...(emoji.animated == null ? {} : { animated: emoji.animated }),
          },
        }),
  };
}

/** The poll a create makes: answers numbered from 1, the expiry `duration` hours from now. */
export function newPoll(
  input: PollCreateInput,
  at: { messageId: string; channelId: string; nowMs: number },
): PollRecord {
  const hours = input.duration ?? POLL_LIMITS.durationHours.default;
  return {
    messageId: at.messageId,
    channelId: at.channelId,
    question: { text: input.question.text },
    answers: input.answers.map((answer, i) => ({
      answerId: i + 1,
      media: media(answer.poll_media),
    })),
    allowMultiselect: input.allow_multiselect ?? false,
    layoutType: DEFAULT_LAYOUT,
    expiresAt: at.nowMs + hours * HOUR_MS,
    finalized: false,
  };
}

/** The votes of a poll: counts per answer and the viewer's own answers. */
export interface PollTally {
  counts: ReadonlyMap<number, number>;
  mine: ReadonlySet<number>;
}

export const EMPTY_TALLY: PollTally = { counts: new Map(), mine: new Set() };

/** A message's `poll` (PollResponse): `results` counted, `is_finalized` once it ended. */
export function serializePoll(poll: PollRecord, tally: PollTally) {
  return {
    question: poll.question,
    answers: poll.answers.map((a) => ({ answer_id: a.answerId, poll_media: a.media })),
    expiry: new Date(poll.expiresAt).toISOString(),
    allow_multiselect: poll.allowMultiselect,
    layout_type: poll.layoutType,
    results: {
      is_finalized: poll.finalized,
      answer_counts: poll.answers.map((a) => ({
        id: a.answerId,
        count: tally.counts.get(a.answerId) ?? 0,
        me_voted: tally.mine.has(a.answerId),
      })),
    },
  } satisfies Pick<WireShape<APIPoll>, 'expiry' | 'allow_multiselect' | 'results'> & {
    question: PollMediaRecord;
    answers: { answer_id: number; poll_media: PollMediaRecord }[];
    layout_type: number;
  };
}

export type PollWire = ReturnType<typeof serializePoll>;
