/**
 * The errors the kit throws: the platform's own refusal of a request (`GuildhallApiError`, with
 * the code, status and message the platform answered), a wait that saw nothing matching
 * (`WaitTimeoutError`, naming what did arrive), and an interaction the app never answered
 * (`InteractionFailedError`).
 *
 * @module
 */

/** The platform's error body: `{code, message, errors?}` (docs/platform-notes.md). */
export interface PlatformErrorBody {
  code: number;
  message: string;
  errors?: unknown;
  /** 429 answers: seconds until the bucket refills. */
  retry_after?: number;
  /** 429 answers: whether the limit is the global one. */
  global?: boolean;
}

/**
 * The platform refused a request a person made: the HTTP status and the platform's error code
 * and message, exactly as the API answered them (`errors` holds the field errors of a 50035).
 *
 * @example
 * ```ts
 * await expect(ann.send(channelId, 'hi')).rejects.toMatchObject({ code: 50013, status: 403 });
 * ```
 */
export class GuildhallApiError extends Error {
  /** The platform's error code (50013 Missing Permissions, 10003 Unknown Channel, …). */
  readonly code: number;
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The request that was refused: `POST /channels/1/messages`. */
  readonly request: string;
  /** The answer's body as sent (field errors, `retry_after` of a 429). */
  readonly body: PlatformErrorBody;

  constructor(request: string, status: number, body: PlatformErrorBody) {
    super(`${request}: ${String(status)} ${String(body.code)} ${body.message}`);
    this.name = `GuildhallApiError[${String(body.code)}]`;
    this.code = body.code;
    this.status = status;
    this.request = request;
    this.body = body;
  }
}

/**
 * Nothing matching arrived in time. The message names what was waited for and lists what did
 * arrive, so a failing test says why.
 */
export class WaitTimeoutError extends Error {
  /** One line for each event that arrived while waiting (the newest last, at most 20). */
  readonly arrived: readonly string[];

  constructor(what: string, timeoutMs: number, arrived: readonly string[]) {
    const seen = arrived.length === 0 ? 'nothing arrived' : `arrived:\n  ${arrived.join('\n  ')}`;
    super(`no ${what} within ${String(timeoutMs)} ms; ${seen}`);
    this.name = 'WaitTimeoutError';
    this.arrived = arrived;
  }
}

/**
 * The app did not answer an interaction in time (the person's client got INTERACTION_FAILURE:
 * "The application did not respond").
 */
export class InteractionFailedError extends Error {
  /** The interaction's id. */
  readonly interactionId: string;

  constructor(interactionId: string, what: string) {
    super(`the application did not respond to ${what} (interaction ${interactionId})`);
    this.name = 'InteractionFailedError';
    this.interactionId = interactionId;
  }
}
