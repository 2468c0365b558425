import { PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { MessageRecord, PollRecord, Repositories } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import {
  loadMessageChannel,
  loadMessageContext,
  serializeMessage,
  type AttachmentLinks,
  type DispatchTarget,
  type MessageChannelAccess,
} from '../messages/index.js';
import { serializeUser } from '../users/index.js';

export interface PollServiceDeps extends ServiceDeps {
  /** What attachment URLs are made of, read at call time (the message payloads carry them). */
  links: () => AttachmentLinks;
}

/** MESSAGE_POLL_VOTE_ADD and _REMOVE: who voted for or withdrew which answer of which poll. */
export interface PollVotePayload {
  user_id: string;
  channel_id: string;
  message_id: string;
  guild_id?: string;
  answer_id: number;
}

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    MESSAGE_POLL_VOTE_ADD: PollVotePayload;
    MESSAGE_POLL_VOTE_REMOVE: PollVotePayload;
  }
}

/**
 * A vote dispatch's payload (MESSAGE_POLL_VOTE_ADD/REMOVE) in the channel of `access`, to `to`
 * (the channel's dispatch target by default).
 */
function voteEvent(
  type: 'MESSAGE_POLL_VOTE_ADD' | 'MESSAGE_POLL_VOTE_REMOVE',
  where: { access: MessageChannelAccess; to?: DispatchTarget },
  vote: { userId: string; messageId: string; answerId: number },
) {
  const { access } = where;
  return {
    type,
    ...(where.to ?? access.dispatchTo),
    data: {
      user_id: vote.userId,
      channel_id: access.channel.id,
      message_id: vote.messageId,
      ...access.guildWire,
      answer_id: vote.answerId,
    },
  };
}

/**
 * Polls (docs/polls.md): who voted for an answer, votes (the web client's route), ending a poll
 * early (its author) and at its expiry (the sweep); every change of its results is a
 * MESSAGE_UPDATE, every vote a MESSAGE_POLL_VOTE_ADD or _REMOVE.
 */
export function createPollService(deps: PollServiceDeps) {
  const { storage, clock } = deps;

  const load = async (
    repos: Repositories,
    principal: Principal,
    request: { channelId: string; messageId: string },
  ) => {
    const access = await loadMessageChannel(repos, {
      channelId: request.channelId,
      userId: principal.user.id,
      nowMs: clock.now(),
    });
    access.require(P.READ_MESSAGE_HISTORY);
    const message = isSnowflake(request.messageId)
      ? await repos.messages.findById(access.channel.id, request.messageId)
      : null;
    if (message === null) throw new ApiError('UNKNOWN_MESSAGE');
    const poll = await repos.polls.find(message.id);
    return { access, message, poll };
  };

  /** The message with its poll as every viewer sees it (no me_voted): a dispatch's payload. */
  const updatePayload = async (repos: Repositories, message: MessageRecord, guildWire: object) => {
    const context = await loadMessageContext(repos, [message], {
      links: deps.links(),
      viewerId: '0',
      reader: null,
    });
    return { ...serializeMessage(message, context), ...guildWire };
  };

  /** Ends a poll now and announces its final results; false when it had ended already. */
  const finalize = async (tx: Repositories, poll: PollRecord): Promise<boolean> => {
    if (!(await tx.polls.finalize(poll.messageId, clock.now()))) return false;
    const message = await tx.messages.findById(poll.channelId, poll.messageId);
    if (message === null) return true;
    const channel = await tx.channels.findById(poll.channelId);
    const recipients =
      message.guildId === null ? await tx.privateChannels.find(poll.channelId) : null;
    afterCommit(tx, {
      type: 'MESSAGE_UPDATE',
      guildId: message.guildId,
      channelId: poll.channelId,
      ...(recipients === null ? {} : { userIds: recipients.recipients.map((r) => r.userId) }),
      data: await updatePayload(
        tx,
        message,
        message.guildId === null || channel === null ? {} : { guild_id: message.guildId },
      ),
    });
    return true;
  };

  return {
    /** GET /channels/{id}/polls/{message_id}/answers/{answer_id}: READ_MESSAGE_HISTORY. */
    async voters(
      principal: Principal,
      request: {
        channelId: string;
        messageId: string;
        answerId: number;
        after?: string;
        limit: number;
      },
    ) {
      const { poll } = await load(storage, principal, request);
      if (poll === null) throw new ApiError('UNKNOWN_MESSAGE');
      if (!poll.answers.some((a) => a.answerId === request.answerId)) {
        throw invalidField(['answer_id'], 'BASE_TYPE_CHOICES', 'Unknown answer.');
      }
      const userIds = await storage.polls.voters(poll.messageId, request.answerId, {
        limit: request.limit,
        ...(request.after === undefined ? {} : { after: request.after }),
      });
      const users = await storage.users.findByIds(userIds);
      const byId = new Map(users.map((u) => [u.id, u]));
      return {
        users: userIds.flatMap((id) => {
          const user = byId.get(id);
          return user === undefined ? [] : [serializeUser(user)];
        }),
      };
    },

    /**
     * PUT /channels/{id}/polls/{message_id}/answers/@me (the web client's vote): the caller's
     * answers become `answerIds` (none: the vote is taken back). One answer unless the poll
     * allows several; refused once it ended (520001).
     */
    async vote(
      principal: Principal,
      request: { channelId: string; messageId: string; answerIds: readonly number[] },
    ) {
      await storage.transaction(async (tx) => {
        const { access, poll } = await load(tx, principal, request);
        if (poll === null) throw new ApiError('UNKNOWN_MESSAGE');
        if (poll.finalized || poll.expiresAt <= clock.now()) throw new ApiError('POLL_EXPIRED');
        const wanted = [...new Set(request.answerIds)];
        if (wanted.length > 1 && !poll.allowMultiselect) {
          throw invalidField(
            ['answer_ids'],
            'BASE_TYPE_MAX_LENGTH',
            'Must be 1 or fewer in length.',
          );
        }
        for (const answerId of wanted) {
          if (!poll.answers.some((a) => a.answerId === answerId)) {
            throw invalidField(['answer_ids'], 'BASE_TYPE_CHOICES', 'Unknown answer.');
          }
        }
        const userId = principal.user.id;
        const current = await tx.polls.votesOf(poll.messageId, userId);
        for (const answerId of current.filter((a) => !wanted.includes(a))) {
          await tx.polls.removeVote({ messageId: poll.messageId, answerId, userId });
          afterCommit(
            tx,
            voteEvent(
              'MESSAGE_POLL_VOTE_REMOVE',
              { access },
              {
                userId,
                messageId: poll.messageId,
                answerId,
              },
            ),
          );
        }
        const added = wanted.filter((a) => !current.includes(a));
        // A vote is the voter's to send: it skips those who block them.
        const to = added.length === 0 ? access.dispatchTo : await access.sendTarget(tx);
        for (const answerId of added) {
          await tx.polls.addVote({ messageId: poll.messageId, answerId, userId });
          afterCommit(
            tx,
            voteEvent(
              'MESSAGE_POLL_VOTE_ADD',
              { access, to },
              {
                userId,
                messageId: poll.messageId,
                answerId,
              },
            ),
          );
        }
      });
    },

    /**
     * POST /channels/{id}/polls/{message_id}/expire: the poll's author ends it now; answers with
     * the message and its final results.
     */
    async expire(principal: Principal, request: { channelId: string; messageId: string }) {
      const message = await storage.transaction(async (tx) => {
        const { message, poll } = await load(tx, principal, request);
        if (poll === null) throw new ApiError('CANNOT_EXPIRE_NON_POLL_MESSAGE');
        if (message.authorId !== principal.user.id) {
          throw new ApiError('CANNOT_EDIT_OTHER_USERS_MESSAGE');
        }
        if (!(await finalize(tx, poll))) throw new ApiError('POLL_EXPIRED');
        return message;
      });
      const context = await loadMessageContext(storage, [message], {
        links: deps.links(),
        viewerId: principal.user.id,
        reader: null,
        knownUsers: [principal.user],
      });
      return serializeMessage(message, context);
    },

    /** Ends the polls whose expiry has passed (the sweep's pass); returns how many. */
    async endExpired(limit: number): Promise<number> {
      const expired = await storage.polls.listExpired(clock.now(), limit);
      let ended = 0;
      for (const poll of expired) {
        if (await storage.transaction((tx) => finalize(tx, poll))) ended++;
      }
      return ended;
    },
  };
}

export type PollService = ReturnType<typeof createPollService>;
