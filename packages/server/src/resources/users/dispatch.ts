/**
 * @module resources/users/dispatch: USER_UPDATE. Each builder returns the exact wire payload (`d`),
 * checked against discord-api-types' dispatch data (`satisfies WireShape<…>`).
 */
import type { GatewayUserUpdateDispatchData } from 'discord-api-types/v10';
import { type TypedDispatch } from '../dispatches.js';
import type { WireShape } from '../wireShape.js';
import type { CurrentUserWire } from './serialize.js';

/** The gateway dispatches of users, built from the serializer's wire objects. */
export const userDispatches = {
  /**
   * Sent to the user's own sessions only, with every private field: each session gets the email
   * and `premium_type` as GET /users/@me shows them to its token (gateway/tokenRouting.ts).
   */
  userUpdate: (user: CurrentUserWire): TypedDispatch<'USER_UPDATE', CurrentUserWire> => ({
    type: 'USER_UPDATE',
    guildId: null,
    userIds: [user.id],
    data: user satisfies WireShape<GatewayUserUpdateDispatchData>,
  }),
};

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    USER_UPDATE: CurrentUserWire;
  }
}
