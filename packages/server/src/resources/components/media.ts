import { ComponentTypes as T } from './limits.js';
import type { Wire } from './fields.js';

/** A message's file as a component's `attachment://` reference resolves to it. */
export interface MediaAttachment {
  id: string;
  filename: string;
  size: number;
  contentType: string | null;
}

const ATTACHMENT_PREFIX = 'attachment://';

/**
 * Stored or sent components with every unfurled media item (a Thumbnail's, a gallery item's, a
 * File's) replaced by `visit(media)`; `fileFields` adds fields to a File from its media item.
 * Components without media are returned as they are.
 */
export function mapComponentMedia(
  components: readonly unknown[],
  visit: (media: Wire) => Wire,
  fileFields: (media: Wire) => Wire = () => ({}),
): unknown[] {
  const map = (item: unknown): unknown => {
    const component = item as Wire;
    switch (component['type']) {
      case T.SECTION:
        return { ...component, accessory: map(component['accessory']) };
      case T.CONTAINER:
        return { ...component, components: (component['components'] as unknown[]).map(map) };
      case T.THUMBNAIL:
        return { ...component, media: visit(component['media'] as Wire) };
      case T.MEDIA_GALLERY:
        return {
          ...component,
          items: (component['items'] as Wire[]).map((entry) => ({
            ...entry,
            media: visit(entry['media'] as Wire),
          })),
        };
      case T.FILE:
        return {
          ...component,
          file: visit(component['file'] as Wire),
          ...fileFields(component['file'] as Wire),
        };
      default:
        return component;
    }
  };
  return components.map(map);
}

/**
 * Stored components as sent: each `attachment://<filename>` media item points at the message's
 * attachment of that name, with its (freshly signed) URL from `urlOf`, content type and
 * `attachment_id`; a File gets the file's name and size (null when the file is gone).
 */
export function resolveComponentMedia<TAttachment extends MediaAttachment>(
  components: readonly unknown[],
  attachments: readonly TAttachment[],
  urlOf: (attachment: TAttachment) => string,
): unknown[] {
  const byName = new Map<string, TAttachment>();
  for (const attachment of attachments) {
    if (!byName.has(attachment.filename)) byName.set(attachment.filename, attachment);
  }
  const fileOf = (media: Wire): TAttachment | undefined => {
    const url = typeof media['url'] === 'string' ? media['url'] : '';
    return url.toLowerCase().startsWith(ATTACHMENT_PREFIX)
      ? byName.get(url.slice(ATTACHMENT_PREFIX.length))
      : undefined;
  };
  return mapComponentMedia(
    components,
    (media) => {
      const url = String(media['url']);
      if (!url.toLowerCase().startsWith(ATTACHMENT_PREFIX)) return media;
      const file = fileOf(media);
      if (file === undefined) return { ...media, proxy_url: url };
      const signed = urlOf(file);
      return {
        ...media,
        url: signed,
        proxy_url: signed,
        ...(file.contentType === null ? {} : { content_type: file.contentType }),
        attachment_id: file.id,
      };
    },
    (media) => {
      const file = fileOf(media);
      return { name: file?.filename ?? null, size: file?.size ?? null };
    },
  );
}
