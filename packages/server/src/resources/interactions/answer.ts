/**
 * An interactions endpoint's answer read as the app's initial response: a 2xx with a JSON body,
 * or with a multipart/form-data body (payload_json and files[n], as a callback with files is
 * sent), each file within the attachment limit. A 202 Accepted leaves the response to the callback route (the caller's concern);
 * anything else is no response, and the interaction fails.
 */
import { Readable } from 'node:stream';
import type { BlobStore } from '../../blobs/index.js';
import type { StreamedFile } from '../../http/multipart.js';
import type { EndpointAnswer } from './ports.js';

/** The status of an answer that leaves the initial response to the callback route. */
export const HTTP_ACCEPTED = 202;
/** The most files one response carries. */
const MAX_RESPONSE_FILES = 10;
const FILE_FIELD = /^files\[(\d{1,2})\]$/;

/** The response in an answer, its files staged; null when the answer is not a response. */
export async function readEndpointAnswer(
  answer: EndpointAnswer,
  blobs: BlobStore,
  /** The largest file a response may carry (the attachment limit). */
  maxFileBytes: number,
): Promise<{ body: unknown; files: StreamedFile[] } | null> {
  if (answer.status === null || answer.status < 200 || answer.status >= 300) return null;
  const type = answer.contentType ?? '';
  try {
    if (type.startsWith('application/json')) {
      return { body: JSON.parse(answer.body.toString('utf8')) as unknown, files: [] };
    }
    if (!type.startsWith('multipart/form-data')) return null;
    // Deprecated for servers because it buffers the whole body: this one is read already, and
    // bounded (MAX_ENDPOINT_ANSWER_BYTES).
    const response = new Response(new Uint8Array(answer.body), {
      headers: { 'content-type': type },
    });
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    const form = await response.formData();
    const payload = form.get('payload_json');
    if (typeof payload !== 'string') return null;
    const parts = [...form.entries()].filter(([name]) => FILE_FIELD.test(name));
    if (parts.length > MAX_RESPONSE_FILES) return null;
    for (const [, value] of parts) {
      if (typeof value === 'string' || value.size > maxFileBytes) return null;
    }
    // The body is parsed before any file is staged, so a bad one leaves nothing behind.
    const body = JSON.parse(payload) as unknown;
    const files: StreamedFile[] = [];
    try {
      for (const [field, value] of parts) {
        if (typeof value === 'string') continue; // refused above
        const blob = await blobs.stage(Readable.from(Buffer.from(await value.arrayBuffer())));
        files.push({
          field,
          index: Number(FILE_FIELD.exec(field)?.[1]),
          filename: value.name,
          contentType: value.type === '' ? 'application/octet-stream' : value.type,
          blob,
        });
      }
    } catch (err) {
      await Promise.all(files.map((file) => file.blob.discard()));
      throw err;
    }
    return { body, files };
  } catch {
    return null;
  }
}
