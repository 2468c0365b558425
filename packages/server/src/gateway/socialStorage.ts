/**
 * @module gateway/socialStorage: the social graph of SDK sessions (gateway/social.ts) read from
 * storage, in the wire shapes of the resources that own each part: relationships
 * (resources/relationships), private channels (resources/dms) and lobbies (resources/lobbies).
 */
import { serializePrivateChannel } from '../resources/dms/index.js';
import { serializeLobby } from '../resources/lobbies/index.js';
import { serializeRelationship } from '../resources/relationships/index.js';
import type { Storage, UserRecord } from '../storage/index.js';
import type { SocialProviders } from './social.js';

async function usersById(storage: Storage, ids: Iterable<string>) {
  const unique = [...new Set(ids)];
  const users = unique.length === 0 ? [] : await storage.users.findByIds(unique);
  return new Map<string, UserRecord>(users.map((u) => [u.id, u]));
}

export function storageSocialProviders(storage: Storage): SocialProviders {
  return {
    /** Platform-wide relationships, then the application's game relationships. */
    async relationships({ userId, applicationId }) {
      const rows = [
        ...(await storage.relationships.listForUser(userId, null)),
        ...(await storage.relationships.listForUser(userId, applicationId)),
      ];
      const users = await usersById(
        storage,
        rows.map((r) => r.targetId),
      );
      return rows.flatMap((row) => {
        const target = users.get(row.targetId);
        return target === undefined ? [] : [serializeRelationship(row, target)];
      });
    },

    friendIds: (userId) => storage.relationships.allFriendIds(userId),

    /** The user's open DMs and group DMs: those of no game and those of this game. */
    async privateChannels({ userId, applicationId }) {
      const channels = (await storage.privateChannels.listOpenFor(userId)).filter(
        (c) => c.channel.applicationId === null || c.channel.applicationId === applicationId,
      );
      const users = await usersById(
        storage,
        channels.flatMap((c) => c.recipients.map((r) => r.userId)),
      );
      return channels.map((c) => serializePrivateChannel(c, users, userId));
    },

    /** The application's lobbies the user is a member of, as their members see them. */
    async lobbies({ userId, applicationId }) {
      const lobbies = await storage.lobbies.listLobbiesOfUser(userId, applicationId);
      return Promise.all(
        lobbies.map(async (lobby) => {
          const members = await storage.lobbies.listMembers(lobby.id);
          const channelId = lobby.linkedChannelId;
          const [channel, overwrites] =
            channelId === null
              ? [null, []]
              : await Promise.all([
                  storage.channels.findById(channelId),
                  storage.overwrites.listByChannel(channelId),
                ]);
          return serializeLobby(
            {
              lobby,
              members,
              linkedChannel: channel === null ? null : { channel, overwrites },
            },
            { forApplication: false },
          );
        }),
      );
    },
  };
}
