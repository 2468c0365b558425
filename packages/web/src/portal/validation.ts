import type { FieldErrors } from '../components/useApiForm.js';
import { isHttpUrl } from './model.js';

/**
 * Light client checks mirroring the API's rules (packages/server resources/applications and
 * users schemas), so an obvious mistake is caught before a request; the API's answer stays
 * authoritative and is shown the same way.
 */
export function checkAppName(name: string): string | undefined {
  if (name.trim().length < 2) return 'Must be between 2 and 32 in length.';
  if (name.length > 32) return 'Must be between 2 and 32 in length.';
  if (/[@#:`]/.test(name)) return 'Name cannot contain @, #, : or backticks.';
  return undefined;
}

export function checkMaxLength(value: string, max: number): string | undefined {
  return value.length > max ? `Must be ${String(max)} or fewer in length.` : undefined;
}

/** An optional http(s) URL of at most 2048 characters. */
export function checkOptionalUrl(value: string): string | undefined {
  if (value === '') return undefined;
  if (value.length > 2048) return 'Must be 2048 or fewer in length.';
  return isHttpUrl(value) ? undefined : 'Not a well formed URL (http or https).';
}

/** The checks whose message is defined, as field errors. */
export function collect(checks: Record<string, string | undefined>): FieldErrors {
  const out: FieldErrors = {};
  for (const [path, message] of Object.entries(checks)) {
    if (message !== undefined) out[path] = message;
  }
  return out;
}
