import { useState } from 'react';
import type { APIAttachment } from 'discord-api-types/v10';
import { safeUrl } from './safeUrl.js';

/** Attachment flag IS_SPOILER (1 << 3), or the platform's `SPOILER_` file name prefix. */
export function isSpoiler(attachment: Pick<APIAttachment, 'filename' | 'flags'>): boolean {
  return attachment.filename.startsWith('SPOILER_') || ((attachment.flags ?? 0) & 8) !== 0;
}

function isImage(attachment: APIAttachment): boolean {
  if (attachment.content_type !== undefined) {
    return /^image\/(png|jpeg|gif|webp|avif)$/u.test(attachment.content_type);
  }
  return /\.(png|jpe?g|gif|webp|avif)$/iu.test(attachment.filename);
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A message's files: images previewed (spoilers blurred until clicked), others as downloads. */
export function Attachments({ attachments }: { attachments: APIAttachment[] }) {
  if (attachments.length === 0) return null;
  return (
    <ul className="attachments" aria-label="Attachments">
      {attachments.map((a) => (
        <li key={a.id}>
          <AttachmentView attachment={a} />
        </li>
      ))}
    </ul>
  );
}

function AttachmentView({ attachment }: { attachment: APIAttachment }) {
  const spoiler = isSpoiler(attachment);
  const [revealed, setRevealed] = useState(!spoiler);
  const url = safeUrl(attachment.url);
  if (url === null) return <span className="attachment-file">{attachment.filename}</span>;
  const name = attachment.filename.replace(/^SPOILER_/u, '');
  if (isImage(attachment)) {
    const image = (
      <img
        src={url}
        alt={attachment.description ?? name}
        width={attachment.width ?? undefined}
        height={attachment.height ?? undefined}
        loading="lazy"
        className={revealed ? 'attachment-image' : 'attachment-image blurred'}
      />
    );
    if (!revealed) {
      return (
        <button
          type="button"
          className="spoiler-cover"
          aria-label={`Spoiler: reveal ${name}`}
          onClick={() => {
            setRevealed(true);
          }}
        >
          {image}
          <span className="spoiler-badge" aria-hidden="true">
            SPOILER
          </span>
        </button>
      );
    }
    return (
      <a href={url} target="_blank" rel="noopener noreferrer" className="attachment-image-link">
        {image}
      </a>
    );
  }
  const link = (
    <a href={url} download={name} rel="noopener noreferrer" className="attachment-file">
      <span aria-hidden="true">📄</span> {name}{' '}
      <span className="muted">({formatSize(attachment.size)})</span>
    </a>
  );
  if (!revealed) {
    return (
      <button
        type="button"
        className="spoiler-cover file"
        aria-label={`Spoiler: reveal ${name}`}
        onClick={() => {
          setRevealed(true);
        }}
      >
        <span className="spoiler-badge">SPOILER</span>
      </button>
    );
  }
  return link;
}
