/**
 * @module gateway/socialStorage: the social graph of SDK sessions (gateway/social.ts) read from
 * storage, in the wire shapes of the resources that own each part: relationships
 * (resources/relationships), private channels (resources/dms) and lobbies (resources/lobbies).
 */
import { recipientUsers, serializePrivateChannel } from '../resources/dms/index.js';
import { readLobbyView, serializeLobby } from '../resources/lobbies/index.js';
import { readRelationships } from '../resources/relationships/index.js';
import type { Storage } from '../storage/index.js';
import type { SocialProviders } from './social.js';

export function storageSocialProviders(storage: Storage): SocialProviders {
  return {
    /** Platform-wide relationships, then the application's game relationships. */
    relationships: ({ userId, applicationId }) => readRelationships(storage, userId, applicationId),

    friendIds: (userId) => storage.relationships.allFriendIds(userId),

    /** The user's open DMs and group DMs: those of no game and those of this game (all, for a person). */
    async privateChannels({ userId, applicationId }) {
      const channels = (await storage.privateChannels.listOpenFor(userId)).filter(
        (c) =>
          applicationId === null ||
          c.channel.applicationId === null ||
          c.channel.applicationId === applicationId,
      );
      const users = await recipientUsers(storage, channels);
      return channels.map((c) => serializePrivateChannel(c, users, userId));
    },

    /** The application's lobbies the user is a member of, as their members see them. */
    async lobbies({ userId, applicationId }) {
      if (applicationId === null) return [];
      const lobbies = await storage.lobbies.listLobbiesOfUser(userId, applicationId);
      return Promise.all(
        lobbies.map(async (lobby) =>
          serializeLobby(await readLobbyView(storage, lobby), { forApplication: false }),
        ),
      );
    },
  };
}
