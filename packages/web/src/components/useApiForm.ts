import { useCallback, useRef, useState } from 'react';
import { ApiError } from '../lib/api.js';

/** Field messages keyed by the API's dotted paths (`name`, `redirect_uris.0`). */
export type FieldErrors = Record<string, string>;

export interface SubmitOptions<T> {
  /**
   * Light checks mirroring the API's (required, lengths): messages by field path. When any, the
   * request is not sent. The API's own answer stays authoritative.
   */
  validate?: () => FieldErrors;
  onSuccess?: (result: T) => void;
}

export interface ApiForm {
  busy: boolean;
  /** The message for a field path, if any. */
  errors: FieldErrors;
  /** The request's top-level message (or a network failure), null when none. */
  message: string | null;
  /**
   * Runs `request` (a call through lib/api.ts); on an ApiError, its field errors go to `errors`
   * and its message to `message`. Resolves with the result, or undefined when it failed.
   */
  submit: <T>(request: () => Promise<T>, options?: SubmitOptions<T>) => Promise<T | undefined>;
  /**
   * What to show above the form: the top-level message when no field has one, else the messages
   * of the fields the form does not show under an input (`shown`: the paths it does show, a
   * prefix `redirect_uris.` covering its items).
   */
  summary: (shown: readonly string[]) => string | null;
  setErrors: (errors: FieldErrors) => void;
  reset: () => void;
}

export function useApiForm(): ApiForm {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  // A second submit while one is running is ignored (a double click sends once).
  const running = useRef(false);

  const submit = useCallback(
    async <T>(request: () => Promise<T>, options: SubmitOptions<T> = {}) => {
      if (running.current) return undefined;
      const local = options.validate?.() ?? {};
      if (Object.keys(local).length > 0) {
        setErrors(local);
        setMessage(null);
        return undefined;
      }
      running.current = true;
      setBusy(true);
      setErrors({});
      setMessage(null);
      try {
        const result = await request();
        options.onSuccess?.(result);
        return result;
      } catch (error) {
        if (error instanceof ApiError) {
          setErrors(error.fieldErrors());
          setMessage(error.message);
        } else {
          setMessage(error instanceof Error ? error.message : String(error));
        }
        return undefined;
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
    [],
  );

  const summary = useCallback(
    (shown: readonly string[]) => {
      const entries = Object.entries(errors);
      if (entries.length === 0) return message;
      const rest = entries.filter(
        ([path]) => !shown.some((key) => (key.endsWith('.') ? path.startsWith(key) : path === key)),
      );
      if (rest.length === 0) return null;
      return rest.map(([path, text]) => (path === '' ? text : `${path}: ${text}`)).join('\n');
    },
    [errors, message],
  );

  const reset = useCallback(() => {
    setErrors({});
    setMessage(null);
  }, []);

  return { busy, errors, message, submit, summary, setErrors, reset };
}
