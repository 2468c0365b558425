import { AttachmentFlags } from '@guildhall/protocol';
import { invalidField } from '../../errors/index.js';
import type { IdGenerator } from '../../domain/snowflakes.js';
import type { StreamedFile } from '../../http/multipart.js';
import type { AttachmentRecord, KeptAttachment, MessageRecord } from '../../storage/index.js';
import { MAX_ATTACHMENTS, type AttachmentRequestInput } from './schemas.js';

const SPOILER_PREFIX = 'SPOILER_';
/** Content types never served inline: a browser would run them on this origin. */
const ACTIVE_TYPES =
  /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml)/i;

export { attachmentKey } from '../../blobs/lifecycle.js';

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

/**
 * What an edit does to a message's files: the existing attachments it keeps (null: the edit
 * names none and uploads none, so all stay) with their new description and spoiler flag, and
 * the new uploads. `requests` is the edit's attachments[] (null/undefined: not given).
 * @throws 50035 when a new entry names no file or the message would hold too many.
 */
export function editedAttachments(input: {
  message: MessageRecord;
  requests: readonly AttachmentRequestInput[] | null | undefined;
  files: readonly StreamedFile[];
  ids: IdGenerator;
}): {
  kept: KeptAttachment[] | null;
  uploads: ReturnType<typeof newAttachments>;
  /** The file names the message has after the edit (what `attachment://` may name). */
  names: string[];
} {
  const { message, files } = input;
  const existingIds = new Set(message.attachments.map((a) => a.id));
  const requests = input.requests ?? [];
  assertFilesPresent(requests, files, existingIds);
  if (input.requests == null && files.length === 0) {
    return { kept: null, uploads: [], names: message.attachments.map((a) => a.filename) };
  }
  const byId = new Map(message.attachments.map((a) => [a.id, a]));
  const listed =
    input.requests == null
      ? message.attachments.map((a): AttachmentRequestInput => ({ id: a.id }))
      : requests.filter((r) => existingIds.has(r.id));
  const kept = listed.flatMap((r, position): KeptAttachment[] => {
    const existing = byId.get(r.id);
    if (existing === undefined) return [];
    return [
      {
        id: r.id,
        position,
        description: r.description === undefined ? existing.description : r.description,
        flags:
          r.is_spoiler === undefined
            ? existing.flags
            : (existing.flags & ~AttachmentFlags.IS_SPOILER) |
              attachmentFlags(existing.filename, r.is_spoiler),
      },
    ];
  });
  const uploads = newAttachments({
    files,
    requests: requests.filter((r) => !existingIds.has(r.id)),
    ids: input.ids,
    messageId: message.id,
    channelId: message.channelId,
    firstPosition: kept.length,
  });
  if (kept.length + uploads.length > MAX_ATTACHMENTS) {
    throw invalidField(
      ['attachments'],
      'BASE_TYPE_MAX_LENGTH',
      `Must be ${String(MAX_ATTACHMENTS)} or fewer in length.`,
    );
  }
  const keptNames = kept.map((k) => byId.get(k.id)?.filename ?? '');
  return { kept, uploads, names: [...keptNames, ...uploads.map((u) => u.attachment.filename)] };
}
