/** @module resources/lobbies: the public surface of Social SDK lobbies. */
export { registerLobbyRoutes } from './routes.js';
export { createLobbyService, type LobbyService } from './service.js';
export { startLobbySweeper, type LobbySweeper } from './sweep.js';
export { LOBBY_LIMITS, LobbyMemberFlags } from './schemas.js';
export { serializeLobby, serializeLobbyMessage } from './serialize.js';
export { viewOf as readLobbyView } from './shared.js';
export { lobbyDispatches, lobbyVoiceStateWire, type LobbyVoiceStateWire } from './dispatch.js';
export { CreateLobbyBody } from './schemas.js';
export { lobbiesModule } from './module.js';
