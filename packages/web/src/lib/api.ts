import { getToken, setToken } from './session.js';

/** The API's base path; the pages use the public v10 API like any other client. */
export const API_BASE = '/api/v10';

/** A nested `errors` tree of a 50035 body: `{field: {_errors: [{code, message}]}}`. */
export interface ErrorTree {
  _errors?: { code: string; message: string }[];
  [key: string]: ErrorTree | { code: string; message: string }[] | undefined;
}

/** The platform's error body (`{code, message, errors}`), or a network failure (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: number;
  readonly errors: ErrorTree | undefined;
  /** Seconds to wait, on a 429. */
  readonly retryAfter: number | undefined;

  constructor(
    status: number,
    body: { code?: number; message: string; errors?: ErrorTree; retry_after?: number },
  ) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code ?? 0;
    this.errors = body.errors;
    this.retryAfter = body.retry_after;
  }

  /** Every field message, keyed by its dotted path (`redirect_uris.0`, `name`). */
  fieldErrors(): Record<string, string> {
    return flattenErrors(this.errors);
  }
}

export function flattenErrors(tree: ErrorTree | undefined, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  if (tree === undefined) return out;
  for (const [key, value] of Object.entries(tree)) {
    if (value === undefined) continue;
    if (key === '_errors' && Array.isArray(value)) {
      out[prefix] = value.map((e) => e.message).join(' ');
    } else if (!Array.isArray(value)) {
      Object.assign(out, flattenErrors(value, prefix === '' ? key : `${prefix}.${key}`));
    }
  }
  return out;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Files sent as multipart, `files[n]`, with `body` as `payload_json`. */
  files?: File[];
  /** Instead: the one file alone, in this part (`file`), with no `payload_json`. */
  fileField?: string;
  /** Sent as X-Audit-Log-Reason. */
  reason?: string;
  /** Whether to send the session token (default: when there is one). */
  auth?: boolean;
  /**
   * Whether the pages' session cookie goes and comes with it (docs/web.md#one-sign-in): only the
   * sign-in and sign-out routes; every other request omits cookies.
   */
  cookies?: boolean;
  signal?: AbortSignal;
}

/**
 * After a 401: whether the session itself is gone (revoked, expired) or only this route refuses
 * a session token. Only the first logs out, so the page shows the login form.
 */
async function checkSession(token: string): Promise<void> {
  try {
    const response = await fetch(`${API_BASE}/users/@me`, {
      headers: { Authorization: token },
      credentials: 'omit',
    });
    if (response.status === 401 && token === getToken()) setToken(null);
  } catch {
    // Unreachable server: the session may well be fine.
  }
}

/** One request to the API; resolves with the JSON body (undefined for 204), throws ApiError. */
export async function api<T>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  const token = options.auth === false ? null : getToken();
  if (token !== null) headers['Authorization'] = token;
  if (options.reason !== undefined)
    headers['X-Audit-Log-Reason'] = encodeURIComponent(options.reason);
  let body: BodyInit | undefined;
  if (options.files !== undefined && options.files.length > 0) {
    const form = new FormData();
    const [first] = options.files;
    if (options.fileField !== undefined && first !== undefined) {
      form.append(options.fileField, first, first.name);
    } else {
      form.append('payload_json', JSON.stringify(options.body ?? {}));
      options.files.forEach((file, index) => {
        form.append(`files[${index}]`, file, file.name);
      });
    }
    body = form;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let url = `${API_BASE}${path}`;
  if (options.query !== undefined) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(options.query)) {
      if (value !== undefined) params.set(key, String(value));
    }
    const text = params.toString();
    if (text !== '') url += `?${text}`;
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body,
      signal: options.signal,
      credentials: options.cookies === true ? 'same-origin' : 'omit',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, {
      message: 'Guildhall could not be reached. Check that the server is running.',
    });
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let json: unknown = undefined;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: reported below with the status.
  }
  if (response.ok) return json as T;
  const error = (json ?? {}) as {
    code?: number;
    message?: string;
    errors?: ErrorTree;
    retry_after?: number;
  };
  if (response.status === 401 && token !== null) void checkSession(token);
  throw new ApiError(response.status, {
    ...error,
    message: error.message ?? `${response.status} ${response.statusText}`,
  });
}

/** The message to show for any error a page catches. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = Object.entries(error.fieldErrors());
    if (fields.length === 0) return error.message;
    return fields
      .map(([path, message]) => (path === '' ? message : `${path}: ${message}`))
      .join('\n');
  }
  return error instanceof Error ? error.message : String(error);
}
