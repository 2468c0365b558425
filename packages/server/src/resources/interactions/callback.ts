/**
 * The app's initial response to an interaction, wherever it comes from: the body of
 * POST /interactions/{id}/{token}/callback, or the body of the app's answer to the signed POST
 * of its interactions endpoint (the HTTP delivery hands it over as it arrived).
 */
import { ApiError, invalidField } from '../../errors/index.js';
import type { StreamedFile } from '../../http/multipart.js';
import type { InteractionRecord, Repositories, Storage } from '../../storage/index.js';
import type { InteractionLifecycle } from './lifecycle.js';

/**
 * Handles one initial response of `interaction`: throws the platform's errors (10062 when the
 * interaction failed or expired, 40060 when it was acknowledged already, 50035 for a bad body)
 * and resolves to what a `with_response` callback answers (null when nothing).
 */
export type HandleCallback = (
  interaction: InteractionRecord,
  body: unknown,
  files: readonly StreamedFile[],
) => Promise<unknown>;

/** The interaction callback types (PONG answers only the endpoint check's PING). */
export const CALLBACK_TYPES = {
  PONG: 1,
  CHANNEL_MESSAGE_WITH_SOURCE: 4,
  DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: 5,
  DEFERRED_UPDATE_MESSAGE: 6,
  UPDATE_MESSAGE: 7,
  APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: 8,
  MODAL: 9,
  LAUNCH_ACTIVITY: 12,
} as const;

const RESPONSE_TYPES: ReadonlySet<number> = new Set(
  Object.values(CALLBACK_TYPES).filter((type) => type !== CALLBACK_TYPES.PONG),
);

/**
 * Acknowledges `interaction` with `responseType` inside `tx`, or throws why it cannot be: 10062
 * when it failed, expired or is gone, 40060 when it was acknowledged already.
 */
export async function acknowledgeOrThrow(
  deps: { storage: Storage; lifecycle: InteractionLifecycle; now: number },
  tx: Repositories,
  response: { interaction: InteractionRecord; responseType: number },
): Promise<void> {
  const { interaction, responseType } = response;
  if (interaction.expiresAt <= deps.now) throw new ApiError('UNKNOWN_INTERACTION');
  if (await deps.lifecycle.acknowledge(tx, interaction, responseType)) return;
  const current = await tx.interactions.findById(interaction.id);
  if (current?.failedAt !== null) throw new ApiError('UNKNOWN_INTERACTION');
  throw new ApiError('INTERACTION_ALREADY_ACKNOWLEDGED');
}

/**
 * The callback handler: checks the response's `type` and acknowledges the interaction with it.
 * What each type then does (messages, modals, autocomplete choices) is the callback route's
 * (docs/interactions.md#responding).
 */
export function createCallbackHandler(deps: {
  storage: Storage;
  clock: { now(): number };
  lifecycle: InteractionLifecycle;
}): HandleCallback {
  return async (interaction, body) => {
    const type = (body as { type?: unknown } | null)?.type;
    if (typeof type !== 'number' || !RESPONSE_TYPES.has(type)) {
      throw invalidField(
        ['type'],
        'BASE_TYPE_CHOICES',
        'Value must be one of {4, 5, 6, 7, 8, 9, 12}.',
      );
    }
    await deps.storage.transaction((tx) =>
      acknowledgeOrThrow({ ...deps, now: deps.clock.now() }, tx, {
        interaction,
        responseType: type,
      }),
    );
    return null;
  };
}
