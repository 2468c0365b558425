/**
 * The shapes every resource's dispatch builders share. Each resource builds its own gateway
 * dispatches (`resources/<name>/dispatch.ts`), each returning the exact wire payload (`d`) the
 * platform sends, checked against discord-api-types' dispatch data (`satisfies WireShape<…>`) so
 * a drift from the wire shape fails the typecheck. Services hand them to `afterCommit` inside
 * their transaction; the gateway filters them per session. The builders take wire objects from
 * the resources' serializers, so a dispatch and the REST response of the same change agree.
 * A leaf: it imports no resource, so every resource may import it.
 *
 * @module
 */
import type { DispatchRoute } from '../domain/dispatch.js';

/**
 * A dispatch with its own name and payload type, as a builder returns it: what a resource
 * registers in `DispatchPayloads` (domain/dispatch.ts) for the name, so it is a `Dispatch`.
 */
export type TypedDispatch<TType extends string, TData> = DispatchRoute & {
  type: TType;
  data: TData;
};

/** A dispatch to the sessions of one guild. */
export const guildEvent = <TType extends string, TData>(
  type: TType,
  guildId: string,
  data: TData,
): TypedDispatch<TType, TData> => ({ type, guildId, data });
