/** @module resources/auth: the public surface of registration, login and sessions. */
export { loginAccount, registerAuthRoutes } from './routes.js';
export { RegisterBody } from './schemas.js';
export { createAuthService, type AuthService, type AuthSettings } from './service.js';
export { expiredCredentialTasks } from './sweep.js';
export { authModule } from './module.js';
