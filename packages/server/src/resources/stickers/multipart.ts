import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors/index.js';

/** One file part of a multipart/form-data body. */
export interface MultipartFile {
  filename: string | null;
  contentType: string | null;
  data: Buffer;
}

/** A parsed multipart/form-data body: text fields and files, by field name. */
export interface MultipartForm {
  readonly kind: 'multipart';
  fields: Record<string, string>;
  files: Record<string, MultipartFile>;
}

export interface MultipartLimits {
  /** Parts beyond this refuse the whole body. */
  maxParts: number;
  /** The largest text field, in bytes. */
  maxFieldBytes: number;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const BOUNDARY = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i;
const DISPOSITION = /^form-data(?:;|$)/i;

function malformed(message: string): ApiError {
  return new ApiError('INVALID_FORM_BODY', {
    errors: { _errors: [{ code: 'MULTIPART_INVALID', message }] },
  });
}

/** A `name="value"` parameter of a Content-Disposition header (quoted or bare). */
function parameter(header: string, name: string): string | null {
  const match = new RegExp(
    `;\\s*${name}="((?:[^"\\\\]|\\\\.)*)"|;\\s*${name}=([^;\\s]+)`,
    'i',
  ).exec(header);
  if (match === null) return null;
  return (match[1] ?? match[2] ?? '').replace(/\\(.)/g, '$1');
}

/** Whether a parsed body came from the multipart parser (rather than JSON). */
export function isMultipartForm(value: unknown): value is MultipartForm {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'multipart'
  );
}

/**
 * A small multipart/form-data parser for a body already buffered under the route's size limit
 * (no dependency is installed for it). It reads RFC 7578 parts: a Content-Disposition with a
 * name, an optional filename and Content-Type. Anything malformed is a 50035.
 */
export function parseMultipart(
  body: Buffer,
  contentType: string,
  limits: MultipartLimits,
): MultipartForm {
  const boundaryMatch = BOUNDARY.exec(contentType);
  const boundary = boundaryMatch?.[1] ?? boundaryMatch?.[2];
  if (boundary === undefined) throw malformed('The multipart boundary is missing.');
  const delimiter = Buffer.from(`--${boundary}`);
  const next = Buffer.from(`\r\n--${boundary}`);
  const form: MultipartForm = { kind: 'multipart', fields: {}, files: {} };
  // The first delimiter may follow a preamble; later ones always start on a new line.
  let position = 0;
  if (!body.subarray(0, delimiter.length).equals(delimiter)) {
    const first = body.indexOf(next);
    if (first < 0) throw malformed('No multipart parts found.');
    position = first + CRLF.length;
  }
  for (let parts = 0; ; parts++) {
    position += delimiter.length;
    if (body.subarray(position, position + 2).toString('latin1') === '--') return form;
    if (parts >= limits.maxParts) throw malformed('Too many multipart parts.');
    if (!body.subarray(position, position + 2).equals(CRLF)) throw malformed('Bad part delimiter.');
    const headerEnd = body.indexOf(HEADER_END, position + 2);
    const end = body.indexOf(next, headerEnd);
    if (headerEnd < 0 || end < 0) throw malformed('A multipart part is not terminated.');
    const headers = new Map<string, string>();
    for (const line of body
      .subarray(position + 2, headerEnd)
      .toString('utf8')
      .split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0)
        headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const disposition = headers.get('content-disposition') ?? '';
    const name = DISPOSITION.test(disposition) ? parameter(disposition, 'name') : null;
    if (name === null || name === '') throw malformed('A multipart part has no field name.');
    const data = body.subarray(headerEnd + HEADER_END.length, end);
    const filename = parameter(disposition, 'filename');
    if (filename !== null || headers.has('content-type')) {
      form.files[name] = { filename, contentType: headers.get('content-type') ?? null, data };
    } else {
      if (data.length > limits.maxFieldBytes) throw malformed(`The field ${name} is too large.`);
      form.fields[name] = data.toString('utf8');
    }
    position = end + CRLF.length;
  }
}

/**
 * Parses multipart/form-data bodies in `scope` (register it in its own scope, so only its routes
 * take multipart), up to `bodyLimit` bytes (40005 beyond it) and the given part limits.
 */
export function addMultipartParser(
  scope: FastifyInstance,
  options: { bodyLimit: number; limits: MultipartLimits },
): void {
  scope.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: options.bodyLimit },
    (request, body, parsed) => {
      try {
        const type = request.headers['content-type'] ?? '';
        parsed(null, parseMultipart(body as Buffer, type, options.limits));
      } catch (err) {
        parsed(err as Error);
      }
    },
  );
}
