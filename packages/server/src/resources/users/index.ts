/** @module resources/users: the public surface of users. */
export { registerUserRoutes } from './routes.js';
export { BotUsername, GlobalName, HumanUsername, usernameTaken } from './schemas.js';
export { serializeUser, type CurrentUserWire, type UserWire } from './serialize.js';
export { serializeCurrentUser, serializePrimaryGuild } from './serialize.js';
export { createUserService } from './service.js';
export { userDispatches } from './dispatch.js';
export { usersModule } from './module.js';
