/**
 * What a failed operation rejects with: the SDK's `ClientResult`, as an Error.
 *
 * @module
 */
import { ErrorType } from './enums.js';

/** The platform's JSON error body (`{code, message, errors}`) or OAuth2's (`{error, …}`). */
export interface PlatformErrorBody {
  code?: number;
  message?: string;
  errors?: unknown;
  error?: string;
  error_description?: string;
  retry_after?: number;
}

export interface SdkErrorInit {
  type: ErrorType;
  /** The HTTP status, 0 when no response came. */
  status?: number;
  /** The platform's error code (`code` of the body), 0 when none. */
  code?: number;
  /** OAuth2's `error` (`invalid_grant`…) when the token endpoint refused. */
  oauthError?: string;
  /** The field errors of a 50035 body. */
  errors?: unknown;
  retryable?: boolean;
  /** Seconds to wait before retrying (a 429's `retry_after`). */
  retryAfter?: number;
  cause?: unknown;
}

/**
 * A failed operation (`ClientResult` of the reference SDK): `type` says what kind of failure,
 * `status` and `code` carry the platform's answer, `message` says what to do next.
 */
export class SdkError extends Error {
  readonly type: ErrorType;
  readonly status: number;
  readonly code: number;
  readonly oauthError: string | null;
  readonly errors: unknown;
  readonly retryable: boolean;
  readonly retryAfter: number;

  constructor(message: string, init: SdkErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'SdkError';
    this.type = init.type;
    this.status = init.status ?? 0;
    this.code = init.code ?? 0;
    this.oauthError = init.oauthError ?? null;
    this.errors = init.errors ?? null;
    this.retryable = init.retryable ?? false;
    this.retryAfter = init.retryAfter ?? 0;
  }

  /** The reference SDK's `ClientResult::Error()`. */
  error(): string {
    return this.message;
  }

  /** The reference SDK's `ClientResult::Successful()`: always false for a thrown result. */
  successful(): false {
    return false;
  }
}

/** A check of an argument failed before any request was made. */
export function validationError(message: string): SdkError {
  return new SdkError(message, { type: ErrorType.ValidationError });
}

/** The operation needs a connected client (`connect()` and a READY). */
export function notReadyError(operation: string): SdkError {
  return new SdkError(
    `${operation} needs a ready client: call updateToken() and connect(), and wait for ClientStatus.Ready.`,
    { type: ErrorType.ClientNotReady },
  );
}

/** Voice is not in this build of the SDK (the browser build: `reason` says why). */
export class VoiceNotAvailableError extends SdkError {
  constructor(operation: string, reason: string) {
    super(`${operation}: voice not available: ${reason}`, { type: ErrorType.Disabled });
    this.name = 'VoiceNotAvailableError';
  }
}

/**
 * An audio device operation (or microphone processing) in the Node build: Node has no audio
 * devices. Calls send and receive Opus frames (or PCM) through `Call.sendOpusFrame`,
 * `Call.sendPcmFrame` and the received-audio callbacks instead.
 */
export class AudioDeviceUnavailableError extends SdkError {
  constructor(operation: string, what: string) {
    super(
      `${operation}: ${what} Node has no audio devices: a call's audio goes in through Call.sendOpusFrame() or Call.sendPcmFrame() and comes out through Call.setOpusFrameReceivedCallback() or startCallWithAudioCallbacks() (docs/sdk.md, Voice).`,
      { type: ErrorType.Disabled },
    );
    this.name = 'AudioDeviceUnavailableError';
  }
}
