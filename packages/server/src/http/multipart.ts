/**
 * multipart/form-data uploads (files[n] plus payload_json), for every route that takes files:
 * messages from users and bots, and later webhooks and interaction responses. Files stream in
 * under a per-file byte limit, so a body is never buffered beyond what the limits allow, and a
 * file over the limit is refused with 40005 (413) before anything is stored. Message and
 * activity attachment files ({@link streamMultipart}) go straight to the blob store's staging
 * folder, under a cap on the whole request too; their routes settle who may upload first.
 * @module
 */
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import type { StagedBlob } from '../blobs/index.js';
import { ApiError } from '../errors/index.js';

export interface UploadLimits {
  /** The largest file, in bytes. */
  maxFileBytes: number;
  /** The most files in one body. */
  maxFiles: number;
  /** The largest text field (payload_json included), in bytes. */
  maxFieldBytes: number;
  /** File fields accepted by name besides files[n] (e.g. `target_users_file`), each index 0. */
  namedFiles?: readonly string[];
}

/** One uploaded file: `index` is n of its `files[n]` field (or its order for other names). */
export interface UploadedFile {
  field: string;
  index: number;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A file streamed to the blob store's staging folder; `blob.size` is its length. */
export type StreamedFile<B extends StagedBlob = StagedBlob> = Omit<UploadedFile, 'data'> & {
  blob: B;
};

export interface MultipartBody<F = UploadedFile> {
  fields: Record<string, string>;
  files: F[];
}

/** How {@link streamMultipart} stores files (as `B`), and what it allows. */
export interface StreamLimits<B extends StagedBlob = StagedBlob> extends UploadLimits {
  /** The most the files of one request may hold together, in bytes (40005 past it). */
  maxTotalBytes: number;
  /** Streams one file into staging (BlobStore.stage, or a caller's that reads it on the way). */
  stage(source: Readable): Promise<B>;
  /** Called at the first file part, before its bytes are read: throws when files are refused. */
  beforeFile?(): void;
}

const FILE_FIELD = /^files\[(\d{1,2})\]$|^file(\d{0,2})$/;
/** Text fields beside payload_json a form may carry (the platform's form fields). */
const MAX_FIELDS = 32;

function invalid(message: string): ApiError {
  return new ApiError('INVALID_FORM_BODY', {
    errors: { _errors: [{ code: 'MULTIPART_INVALID', message }] },
  });
}

/**
 * Registers the multipart parser on a scope (routes registered on `scope` after this accept
 * multipart/form-data). Nothing is read until a route calls {@link readMultipart}.
 */
export async function registerMultipart(scope: FastifyInstance): Promise<void> {
  await scope.register(multipart, { throwFileSizeLimit: true });
}

/** Whether the request carries a multipart body. */
export function isMultipart(request: FastifyRequest): boolean {
  return /^multipart\/form-data/i.test(request.headers['content-type'] ?? '');
}

/**
 * Reads a multipart body: text fields, and files each buffered only up to `maxFileBytes`.
 * @throws ApiError 40005 for a file over the limit, 50035 for too many files, a malformed body
 *   or an unexpected field.
 */
export function readMultipart(request: FastifyRequest, limits: UploadLimits) {
  return readParts(request, limits, async (part) => ({ data: await part.toBuffer() }));
}

/**
 * Reads a multipart body whose files stream to the blob store's staging folder, never whole in
 * memory. On any error every file staged so far is discarded; on success the caller commits or
 * discards them.
 * @throws ApiError 40005 for a file over `maxFileBytes` or files over `maxTotalBytes` together,
 *   whatever `beforeFile` throws, and what {@link readMultipart} throws.
 */
export async function streamMultipart<B extends StagedBlob = StagedBlob>(
  request: FastifyRequest,
  limits: StreamLimits<B>,
): Promise<MultipartBody<StreamedFile<B>>> {
  let total = 0;
  const staged: B[] = [];
  try {
    return await readParts(request, limits, async (part) => {
      limits.beforeFile?.();
      // Pulled only as staging writes, so nothing flows (or fails) before the file is open.
      async function* capped(source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          total += chunk.length;
          if (total > limits.maxTotalBytes) throw new ApiError('REQUEST_ENTITY_TOO_LARGE');
          yield chunk;
        }
      }
      const blob = await limits.stage(Readable.from(capped(part.file)));
      staged.push(blob);
      if (part.file.truncated) throw new ApiError('REQUEST_ENTITY_TOO_LARGE');
      return { blob };
    });
  } catch (err) {
    await Promise.all(staged.map((blob) => blob.discard()));
    throw err;
  }
}

async function readParts<T>(
  request: FastifyRequest,
  limits: UploadLimits,
  readFile: (part: MultipartFile) => Promise<T>,
): Promise<MultipartBody<Omit<UploadedFile, 'data'> & T>> {
  const body: MultipartBody<Omit<UploadedFile, 'data'> & T> = { fields: {}, files: [] };
  try {
    const parts = request.parts({
      limits: {
        fileSize: limits.maxFileBytes,
        files: limits.maxFiles,
        fields: MAX_FIELDS,
        fieldSize: limits.maxFieldBytes,
        parts: limits.maxFiles + MAX_FIELDS,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        const match = FILE_FIELD.exec(part.fieldname);
        const named = limits.namedFiles?.includes(part.fieldname) ?? false;
        if (match === null && !named) {
          throw invalid(`Unexpected file field ${part.fieldname.slice(0, 64)}.`);
        }
        const read = await readFile(part);
        body.files.push({
          field: part.fieldname,
          index: match === null ? 0 : Number(match[1] ?? (match[2] === '' ? 0 : match[2])),
          filename: part.filename,
          contentType: part.mimetype,
          ...read,
        });
      } else {
        if (part.valueTruncated) throw invalid(`The field ${part.fieldname} is too large.`);
        body.fields[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const code = (err as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new ApiError('REQUEST_ENTITY_TOO_LARGE', { cause: err });
    }
    if (code === 'FST_FILES_LIMIT') {
      throw new ApiError('INVALID_FORM_BODY', {
        cause: err,
        errors: {
          files: {
            _errors: [
              {
                code: 'BASE_TYPE_MAX_LENGTH',
                message: `Must be ${String(limits.maxFiles)} or fewer in length.`,
              },
            ],
          },
        },
      });
    }
    throw new ApiError('INVALID_FORM_BODY', {
      cause: err,
      errors: { _errors: [{ code: 'MULTIPART_INVALID', message: 'Invalid multipart body.' }] },
    });
  }
  return body;
}

/** payload_json of a multipart body, parsed (an empty object when absent). */
export function payloadJson(body: Pick<MultipartBody, 'fields'>): unknown {
  const raw = body.fields['payload_json'];
  if (raw === undefined) return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch (err) {
    throw new ApiError('INVALID_JSON', { cause: err });
  }
}
