/**
 * What this client invoked, by interaction id: the "used /command" line of a response names the
 * command, which the message's `interaction_metadata` does not carry. The invoker's own client
 * learns the id from INTERACTION_SUCCESS (matched by nonce) and keeps the name here; other
 * people's clients show "used a command".
 */
import { createStore, useStore } from '../../lib/store.js';

const labels = createStore<Record<string, string>>({});

export function rememberInteraction(id: string, label: string): void {
  labels.set((all) => ({ ...all, [id]: label }));
}

export function useInteractionLabel(id: string | undefined): string | undefined {
  return useStore(labels, (all) => (id === undefined ? undefined : all[id]));
}
