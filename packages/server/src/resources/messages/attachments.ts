import { AttachmentFlags } from '@guildhall/protocol';
import { invalidField } from '../../errors/index.js';
import type { IdGenerator } from '../../domain/snowflakes.js';
import type { StreamedFile } from '../../http/multipart.js';
import type { AttachmentRecord } from '../../storage/index.js';
import type { AttachmentRequestInput } from './schemas.js';

const SPOILER_PREFIX = 'SPOILER_';
/** Content types never served inline: a browser would run them on this origin. */
const ACTIVE_TYPES =
  /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml)/i;

/** The blob key of an attachment's bytes. */
export const attachmentKey = (attachmentId: string) => `attachments/${attachmentId}`;

/**
 * A filename fit for a URL path and a Content-Disposition header: the last path segment, with
 * anything but letters, digits, dot, dash and underscore replaced by `_` (as the platform does
 * with spaces), at most 255 characters.
 */
/** The longest stored file name. */
const MAX_FILENAME_LENGTH = 255;

export function safeFilename(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '')
    .slice(0, MAX_FILENAME_LENGTH);
  return cleaned === '' ? 'unknown' : cleaned;
}

/** The flags of an attachment: IS_SPOILER for is_spoiler or a SPOILER_ filename. */
export function attachmentFlags(filename: string, isSpoiler: boolean | undefined): number {
  return isSpoiler === true || filename.startsWith(SPOILER_PREFIX) ? AttachmentFlags.IS_SPOILER : 0;
}

/** The content type an attachment is stored with (the declared one, else by extension). */
export function storedContentType(file: StreamedFile): string {
  const declared = file.contentType.trim().toLowerCase();
  if (/^[a-z0-9.+-]+\/[a-z0-9.+-]+(;.*)?$/.test(declared))
    return declared.split(';')[0] ?? declared;
  return 'application/octet-stream';
}

/** Whether a stored content type must be served as a download, never inline. */
export function mustDownload(contentType: string): boolean {
  return ACTIVE_TYPES.test(contentType);
}

/**
 * Pairs uploaded files with the attachments[] entries naming them (by `id` = n of files[n]) and
 * builds their records, each with its file.
 * @throws 50035 when a new attachment's file is missing or two files share an index.
 */
export function newAttachments(input: {
  files: readonly StreamedFile[];
  requests: readonly AttachmentRequestInput[];
  ids: IdGenerator;
  messageId: string;
  channelId: string;
  firstPosition: number;
}): { attachment: AttachmentRecord; file: StreamedFile }[] {
  const requestByIndex = new Map(input.requests.map((r) => [r.id, r]));
  const seen = new Set<number>();
  const sorted = [...input.files].sort((a, b) => a.index - b.index);
  return sorted.map((file, order) => {
    if (seen.has(file.index)) {
      throw invalidField(['files'], 'BASE_TYPE_INVALID', 'Two files share an index.');
    }
    seen.add(file.index);
    const request = requestByIndex.get(String(file.index));
    const filename = safeFilename(request?.filename ?? file.filename);
    const attachment: AttachmentRecord = {
      id: input.ids(),
      messageId: input.messageId,
      channelId: input.channelId,
      position: input.firstPosition + order,
      filename,
      description: request?.description ?? null,
      contentType: storedContentType(file),
      size: file.blob.size,
      flags: attachmentFlags(filename, request?.is_spoiler),
      title: request?.title ?? null,
    };
    return { attachment, file };
  });
}

/** Checks that every new attachments[] entry (not an existing id) names an uploaded file. */
export function assertFilesPresent(
  requests: readonly AttachmentRequestInput[],
  files: readonly StreamedFile[],
  existingIds: ReadonlySet<string>,
): void {
  const indexes = new Set(files.map((file) => String(file.index)));
  requests.forEach((request, position) => {
    if (!existingIds.has(request.id) && !indexes.has(request.id)) {
      throw invalidField(
        ['attachments', position, 'id'],
        'ATTACHMENT_NOT_FOUND',
        'Unknown attachment id: no file was uploaded for it.',
      );
    }
  });
}
