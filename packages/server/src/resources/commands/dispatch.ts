import type { GatewayApplicationCommandPermissionsUpdateDispatchData } from 'discord-api-types/v10';
import type { TypedDispatch } from '../dispatches.js';
import type { WireShape } from '../wireShape.js';
import type { CommandPermissionsWire } from './serialize.js';

/**
 * APPLICATION_COMMAND_PERMISSIONS_UPDATE to the guild's sessions (no intent gates it): a
 * command's, or the application-wide, overwrites after a change.
 */
export function permissionsUpdate(
  wire: CommandPermissionsWire,
): TypedDispatch<'APPLICATION_COMMAND_PERMISSIONS_UPDATE', CommandPermissionsWire> {
  return {
    type: 'APPLICATION_COMMAND_PERMISSIONS_UPDATE',
    guildId: wire.guild_id,
    data: wire satisfies WireShape<GatewayApplicationCommandPermissionsUpdateDispatchData>,
  };
}

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    APPLICATION_COMMAND_PERMISSIONS_UPDATE: CommandPermissionsWire;
  }
}
