/**
 * @module rpc/consent: how the daemon asks the person to allow an AUTHORIZE (docs/rpc.md,
 * Consent). `prompt` asks on the terminal, one question at a time; `allow` and `deny` answer
 * without asking, for CI and headless machines. An authorization the person already gave that
 * covers the scopes is never asked about again (rpc/commands.ts checks before asking).
 */
import type { ConsentDecider, ConsentRequest } from './types.js';

export const CONSENT_MODES = ['prompt', 'allow', 'deny'] as const;
export type ConsentMode = (typeof CONSENT_MODES)[number];

export function isConsentMode(value: string): value is ConsentMode {
  return (CONSENT_MODES as readonly string[]).includes(value);
}

/** Asks one question on the terminal; resolves with the line typed (null if input ended). */
export type Ask = (question: string) => Promise<string | null>;

/** The question the terminal shows. */
export function consentQuestion(request: ConsentRequest): string {
  const { application, scopes } = request;
  return `guildhall rpc: "${application.name}" (application ${application.id}) asks for: ${scopes.join(', ')}. Allow? [y/N] `;
}

/** The decider of a mode; `prompt` needs a terminal to ask on. */
export function createConsent(
  mode: ConsentMode,
  ask: Ask | null,
  log: (line: string) => void,
): ConsentDecider {
  if (mode === 'allow' || mode === 'deny') {
    return (request) => {
      log(
        `rpc: ${mode === 'allow' ? 'allowed' : 'denied'} "${request.application.name}" (${request.scopes.join(' ')}) by --consent ${mode}`,
      );
      return Promise.resolve(mode === 'allow');
    };
  }
  if (ask === null) throw new TypeError('The prompt consent needs a terminal.');
  // One question at a time: two clients authorizing together are asked in turn.
  let queue: Promise<unknown> = Promise.resolve();
  return (request) => {
    const answer = queue.then(() => ask(consentQuestion(request)));
    queue = answer.catch(() => null);
    return answer.then((line) => line !== null && /^\s*y(es)?\s*$/i.test(line));
  };
}
