import type {
  APIChannel,
  APIUser,
  GatewayDispatchPayload,
  GatewayReadyDispatchData,
} from 'discord-api-types/v10';
import type { ClientState, PresenceData } from '../clientState.js';

/**
 * READY as a person's session gets it: beyond a bot's fields, its private channels, its
 * relationships and its friends' presences.
 */
export interface UserReadyData extends GatewayReadyDispatchData {
  private_channels?: APIChannel[];
  relationships?: { id: string; type: number; user: APIUser; nickname?: string | null }[];
  presences?: PresenceData[];
}

/** A gateway payload's name (as the string on the wire) and data. */
type Named<P> = P extends { t: infer T extends string; d: infer D } ? { t: `${T}`; d: D } : never;

type Payload =
  Exclude<Named<GatewayDispatchPayload>, { t: 'READY' }> | { t: 'READY'; d: UserReadyData };

/** Each dispatch's data by its name, as discord-api-types' gateway payloads type them. */
export type DispatchData = { [P in Payload as P['t']]: P['d'] };
export type DispatchName = keyof DispatchData;

/**
 * A slice reducer: for each dispatch one part of the state follows, what it does to the state.
 * Pure; `now` (ms) dates typing indicators. A dispatch the slice does not name leaves the state
 * as it is.
 */
export type Slice = {
  readonly [K in DispatchName]?: (
    state: ClientState,
    data: DispatchData[K],
    now: number,
  ) => ClientState;
};

/**
 * The slices as one reducer: a dispatch goes through each slice that names it, in order (the
 * name and the data keep each other's type).
 */
export function combineSlices(slices: readonly Slice[]) {
  return <K extends DispatchName>(
    state: ClientState,
    dispatch: { t: K; d: DispatchData[K] },
    now: number,
  ): ClientState => {
    let next = state;
    for (const slice of slices) {
      const handler = slice[dispatch.t];
      if (handler !== undefined) next = handler(next, dispatch.d, now);
    }
    return next;
  };
}
