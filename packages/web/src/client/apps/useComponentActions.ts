import { useCallback, useState } from 'react';
import type { APIChannel, APIMessage } from 'discord-api-types/v10';
import { errorMessage } from '../../lib/api.js';
import { useClient } from '../context.js';
import { applicationOfMessage } from './commandIndex.js';
import { InteractionKind, NO_RESPONSE, sendInteraction } from './interactions.js';

export interface ComponentActions {
  /** The custom_ids waiting for the app's answer. */
  pending: ReadonlySet<string>;
  error: string | null;
  /** A click or a selection: POST /interactions type 3 with the message and `data`. */
  send(componentType: number, customId: string, values?: string[]): void;
}

/**
 * Sends a message's component interactions; each component shows its loading state until
 * INTERACTION_SUCCESS or INTERACTION_FAILURE for its nonce.
 */
export function useComponentActions(message: APIMessage, channel: APIChannel): ComponentActions {
  const client = useClient();
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const send = useCallback(
    (componentType: number, customId: string, values?: string[]) => {
      const done = () => {
        setPending((current) => {
          const next = new Set(current);
          next.delete(customId);
          return next;
        });
      };
      setError(null);
      setPending((current) => new Set(current).add(customId));
      void (async () => {
        try {
          const applicationId = await applicationOfMessage(message, channel.id);
          if (applicationId === null)
            throw new Error('This message belongs to no app you can use.');
          const outcome = await sendInteraction(client, {
            type: InteractionKind.COMPONENT,
            applicationId,
            channel,
            messageId: message.id,
            data: {
              component_type: componentType,
              custom_id: customId,
              ...(values === undefined ? {} : { values }),
            },
          });
          if (outcome === 'failure') setError(NO_RESPONSE);
        } catch (failure) {
          setError(errorMessage(failure));
        } finally {
          done();
        }
      })();
    },
    [client, message, channel],
  );
  return { pending, error, send };
}
