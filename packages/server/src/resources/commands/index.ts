/** @module resources/commands: application commands, their guild permissions, and their use. */
export { localeOf, registerCommandRoutes } from './routes.js';
export { createCommandService, type CommandScope, type CommandService } from './service.js';
export {
  serializeCommand,
  serializePermissions,
  type CommandPermissionsWire,
  type CommandWire,
  type LocalizationView,
} from './serialize.js';
export {
  allChannelsId,
  effectiveContexts,
  resolveCommandForInvocation,
  type CommandInvocationPlace,
} from './invocation.js';
export { isInstalledInGuild } from './installs.js';
export {
  COMMAND_LIMITS,
  CommandPermissionType,
  CommandType,
  EntryPointHandler,
  IntegrationType,
  InteractionContext,
  OptionType,
} from './limits.js';
export { CreateCommandBody } from './schemas.js';
export { commandsModule } from './module.js';
