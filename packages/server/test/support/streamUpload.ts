/**
 * A large multipart upload streamed through a real socket, a mebibyte at a time, that stops
 * sending once the server answered: what it sent by then shows whether the server read the body
 * before refusing it.
 *
 * @module
 */
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';

export const MiB = 1024 * 1024;
const BOUNDARY = 'guildhall-upload-test';

export interface StreamedUpload {
  /** The file's bytes (a multiple of a MiB is sent exactly). */
  bytes: number;
  /** Its form field (`files[0]` by default). */
  field?: string;
  /** Text fields sent before the file. */
  fields?: Record<string, string>;
  /** Called before each MiB is sent. */
  onChunk?: () => void;
}

export interface StreamedAnswer {
  status: number;
  body: string;
  /** The file's bytes handed to the socket before the answer came. */
  sentBytes: number;
}

/** POSTs `upload` to `url` with `auth`; resolves with the answer once it is complete. */
export function streamUpload(
  url: string,
  auth: string,
  upload: StreamedUpload,
): Promise<StreamedAnswer> {
  const chunk = Buffer.alloc(MiB, 0x61);
  let answered = false;
  let sentBytes = 0;
  function* body() {
    for (const [name, value] of Object.entries(upload.fields ?? {})) {
      yield Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      );
    }
    yield Buffer.from(
      `--${BOUNDARY}\r\n` +
        `Content-Disposition: form-data; name="${upload.field ?? 'files[0]'}"; filename="big.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    );
    for (let sent = 0; sent < upload.bytes && !answered; sent += chunk.length) {
      upload.onChunk?.();
      const part = chunk.subarray(0, Math.min(chunk.length, upload.bytes - sent));
      sentBytes += part.length;
      yield part;
    }
    yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      agent: false,
      headers: {
        connection: 'close',
        authorization: auth,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
    });
    req.on('response', (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(parts).toString('utf8'),
          sentBytes,
        });
        req.destroy();
      });
    });
    // The server may close the socket once it answered; only an error before that counts.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    Readable.from(body()).pipe(req);
  });
}
