import { isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import { dmKey, type Repositories } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import type { CreateMessageInput, EditMessageInput, MessageService } from '../messages/index.js';
import { DM_WRITE_SCOPE, provisionalApps, requireDmAccess, requireScope } from './policy.js';
import type { PrivateChannelService } from './service.js';

/**
 * What the Social SDK does with DMs over REST (docs/social-dms.md): send to a user
 * (`POST /users/{user.id}/messages`, Bearer), read the DM with a user
 * (`GET /users/{user.id}/messages`, Bearer), and a game backend's moderation metadata of a DM
 * message (`PUT /partner-sdk/dms/{a}/{b}/messages/{id}/moderation-metadata`, Bot).
 */
export function createSdkDmService(
  deps: ServiceDeps,
  services: { privateChannels: PrivateChannelService; messages: MessageService },
) {
  const { storage, clock } = deps;
  const { privateChannels, messages } = services;

  /** The DM of two users that an application's game takes part in, or 10003. */
  const gameDm = async (repos: Repositories, users: [string, string], applicationId: string) => {
    if (!users.every(isSnowflake)) throw new ApiError('UNKNOWN_USER');
    const [a, b] = users;
    const scoped = await repos.privateChannels.findByDmKey(dmKey(a, b, applicationId));
    const record = scoped ?? (await repos.privateChannels.findByDmKey(dmKey(a, b, null)));
    if (record === null) throw new ApiError('UNKNOWN_CHANNEL');
    return record;
  };

  return {
    /** POST /users/{user.id}/messages: the DM with the user (made when missing) gets a message. */
    async send(principal: Principal, userId: string, input: CreateMessageInput) {
      requireScope(principal, DM_WRITE_SCOPE);
      const record = await privateChannels.openWith(principal, userId);
      return messages.create(principal, { channelId: record.channel.id, input, files: [] });
    },

    /**
     * PATCH /users/{user.id}/messages/{message.id} (Guildhall's own, the SDK's EditUserMessage):
     * the author edits a message of the DM with the user, as PATCH /channels/{id}/messages/{id}
     * does. No DM with the user is 10003.
     */
    async edit(
      principal: Principal,
      target: { userId: string; messageId: string },
      input: EditMessageInput,
    ) {
      requireScope(principal, DM_WRITE_SCOPE);
      const record = await privateChannels.findWith(principal, target.userId);
      if (record === null) throw new ApiError('UNKNOWN_CHANNEL');
      return messages.edit(principal, {
        channelId: record.channel.id,
        messageId: target.messageId,
        input,
        files: [],
      });
    },

    /**
     * DELETE /users/{user.id}/messages/{message.id} (Guildhall's own, the SDK's
     * DeleteUserMessage): the author deletes a message of the DM with the user.
     */
    async delete(principal: Principal, target: { userId: string; messageId: string }) {
      requireScope(principal, DM_WRITE_SCOPE);
      const record = await privateChannels.findWith(principal, target.userId);
      if (record === null) throw new ApiError('UNKNOWN_CHANNEL');
      await messages.delete(principal, {
        channelId: record.channel.id,
        messageId: target.messageId,
        reason: null,
      });
    },

    /**
     * GET /users/{user.id}/messages: the newest messages of the DM with the user (none when there
     * is no DM), each with the caller's application's moderation metadata.
     */
    async list(principal: Principal, userId: string, query: { limit: number; before?: string }) {
      requireDmAccess(principal, 'dmMessages');
      const record = await privateChannels.findWith(principal, userId);
      if (record === null) return [];
      const wires = await messages.list(principal, record.channel.id, query);
      const app = principal.applicationId;
      if (app === null) return wires;
      return Promise.all(
        wires.map(async (wire) => {
          const found = await storage.privateChannels.findModerationMetadata(wire.id, app);
          return found === null ? wire : { ...wire, moderation_metadata: found.metadata };
        }),
      );
    },

    /**
     * PUT moderation metadata of a DM message: the bot's application must take part in the DM
     * (a game DM of it, a message its SDK sent, or a provisional account of it); replaces what
     * the application set before. No webhook event, no gateway dispatch.
     */
    async putModerationMetadata(
      principal: Principal,
      request: { users: [string, string]; messageId: string; metadata: Record<string, string> },
    ): Promise<void> {
      const app = principal.applicationId;
      if (app === null) throw new ApiError('MISSING_ACCESS');
      const record = await gameDm(storage, request.users, app);
      const message = isSnowflake(request.messageId)
        ? await storage.messages.findById(record.channel.id, request.messageId)
        : null;
      if (message === null) throw new ApiError('UNKNOWN_MESSAGE');
      const involved =
        record.channel.applicationId === app ||
        message.applicationId === app ||
        (await Promise.all(record.recipients.map((r) => provisionalApps(storage, r.userId)))).some(
          (apps) => apps.includes(app),
        );
      if (!involved) throw new ApiError('MISSING_ACCESS');
      await storage.transaction((tx) =>
        tx.privateChannels.putModerationMetadata({
          messageId: message.id,
          applicationId: app,
          metadata: request.metadata,
          updatedAt: clock.now(),
        }),
      );
    },
  };
}

export type SdkDmService = ReturnType<typeof createSdkDmService>;
