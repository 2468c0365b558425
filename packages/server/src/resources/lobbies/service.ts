import { createLobbyCore } from './lobbies.js';
import { createLobbyGuildOperations } from './guildChannels.js';
import { createLobbyLinkOperations } from './links.js';
import { createLobbyMemberOperations } from './members.js';
import { createLobbyMessageEditOperations } from './messageEdits.js';
import { createLobbyMessageOperations, type LobbyMessageDeps } from './messages.js';

export type LobbyDeps = LobbyMessageDeps;

/**
 * Lobbies of the Social SDK (docs/lobbies.md): the lobby, its members, its messages and its
 * linked channel. Each part is built from the same deps.
 */
export function createLobbyService(deps: LobbyDeps) {
  return {
    ...createLobbyCore(deps),
    members: createLobbyMemberOperations(deps),
    messages: {
      ...createLobbyMessageOperations(deps),
      ...createLobbyMessageEditOperations(deps),
    },
    links: createLobbyLinkOperations(deps),
    guilds: createLobbyGuildOperations(deps),
  };
}

export type LobbyService = ReturnType<typeof createLobbyService>;
