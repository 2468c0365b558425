/** @module gateway: the WebSocket gateway (sessions, dispatch fan-out, commands). */
export { createGateway, type Gateway, type GatewayDeps } from './gateway.js';
export { DEFAULT_GATEWAY_OPTIONS, type GatewayOptions } from './options.js';
export { createDatabaseSessionStore, type SessionStore } from './sessionStore.js';
export type { SocialProviders, WireObject } from './social.js';
export { liveActivities } from './presences.js';
export { storageSocialProviders } from './socialStorage.js';
export type { VoiceServers } from './voiceServer.js';
export type { DispatchFate, GatewayHooks, LoginSubject, SessionAction } from './hooks.js';
export type { Session } from './session.js';
