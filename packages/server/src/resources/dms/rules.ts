import { ChannelTypes } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { Repositories } from '../../storage/index.js';
import type { ServiceDeps, SocialLimits, SocialWebhookEvents } from '../deps.js';
import type {
  AttachmentLinks,
  CreateMessageInput,
  PrivateMessageRules,
} from '../messages/index.js';
import { announceToEach, enqueueGameDmEvents } from './events.js';
import { assertMayMessage } from './policy.js';
import { recipientUsers } from './serialize.js';

export interface PrivateRulesDeps extends ServiceDeps {
  /** The durable outbox of GAME_DIRECT_MESSAGE_* webhook events. */
  webhookEvents: SocialWebhookEvents;
  /** The Social SDK pre-approval limits (SDK DM sends count as `dm_send`). */
  socialLimits: SocialLimits;
  links: () => AttachmentLinks;
}

/**
 * The application an activity invite names: `application_id`, or the caller's own; another
 * application only when it has the same owner as the caller's (a sibling game). 50035 when
 * none is named or the named one is not allowed.
 */
async function inviteApplication(
  repos: Repositories,
  principal: Principal,
  input: CreateMessageInput,
): Promise<string> {
  const named = input.application_id ?? principal.applicationId;
  if (named == null) {
    throw invalidField(['application_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
  }
  const application = await repos.applications.findById(named);
  if (application === null) {
    throw invalidField(['application_id'], 'BASE_TYPE_INVALID', 'Unknown application.');
  }
  if (principal.applicationId !== null && named !== principal.applicationId) {
    const own = await repos.applications.findById(principal.applicationId);
    if (own?.ownerId !== application.ownerId) {
      throw invalidField(
        ['application_id'],
        'BASE_TYPE_INVALID',
        'The application is not one of the same developer.',
      );
    }
  }
  return named;
}

/** The rules of DMs and group DMs that the message service applies (PrivateMessageRules). */
export function createPrivateMessageRules(deps: PrivateRulesDeps): PrivateMessageRules {
  const { webhookEvents, socialLimits, links } = deps;
  return {
    async beforeCreate(repos, { principal, access, input }) {
      const record = access.privateChannel;
      if (record === null) throw new ApiError('UNKNOWN_CHANNEL');
      if (record.channel.type === ChannelTypes.DM) {
        const other = record.recipients.find((r) => r.userId !== principal.user.id);
        const recipient = other === undefined ? null : await repos.users.findById(other.userId);
        await assertMayMessage(repos, {
          principal,
          recipient,
          applicationId: record.channel.applicationId,
        });
      }
      const activity =
        input.activity == null
          ? null
          : { type: input.activity.type, partyId: input.activity.party_id };
      const inviteApp = activity === null ? null : await inviteApplication(repos, principal, input);
      const sdkApp = principal.kind === 'bearer' ? principal.applicationId : null;
      if (sdkApp !== null) await socialLimits.consume(sdkApp, 'dm_send');
      return { applicationId: inviteApp ?? sdkApp, activity };
    },

    async created(tx, { access, message }) {
      const record = access.privateChannel;
      if (record === null) return;
      // A DM a recipient closed (or never saw) opens again with its CHANNEL_CREATE first.
      const closed = record.recipients.filter((r) => !r.open).map((r) => r.userId);
      if (closed.length > 0) {
        await tx.privateChannels.setOpen(record.channel.id, closed, true);
        const reopened = {
          ...record,
          channel: { ...record.channel, lastMessageId: message.id },
          recipients: record.recipients.map((r) => ({ ...r, open: true })),
        };
        announceToEach(tx, {
          type: 'CHANNEL_CREATE',
          record: reopened,
          users: await recipientUsers(tx, [record]),
          userIds: closed,
        });
      }
      await enqueueGameDmEvents(
        tx,
        { webhookEvents, links },
        { type: 'GAME_DIRECT_MESSAGE_CREATE', record, message },
      );
    },

    async updated(tx, { access, message, contentChanged }) {
      const record = access.privateChannel;
      if (record === null) return;
      // Editing the content clears every application's moderation metadata (spec).
      if (contentChanged) await tx.privateChannels.clearModerationMetadata(message.id);
      await enqueueGameDmEvents(
        tx,
        { webhookEvents, links },
        { type: 'GAME_DIRECT_MESSAGE_UPDATE', record, message },
      );
    },

    async deleted(tx, { access, message }) {
      const record = access.privateChannel;
      if (record === null) return;
      await enqueueGameDmEvents(
        tx,
        { webhookEvents, links },
        { type: 'GAME_DIRECT_MESSAGE_DELETE', record, message },
      );
    },
  };
}
