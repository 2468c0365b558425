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
 * Stored components as sent: each `attachment://<filename>` media item (thumbnails, gallery
 * items, files) points at the message's attachment of that name, with its (freshly signed) URL
 * from `urlOf`, content type and `attachment_id`; a File gets the file's name and size (null
 * when the file is gone). Components without media are returned as they are.
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
  const media = (item: unknown): { wire: unknown; file: TAttachment | undefined } => {
    const raw = item as Wire;
    const url = typeof raw['url'] === 'string' ? raw['url'] : '';
    if (!url.toLowerCase().startsWith(ATTACHMENT_PREFIX)) return { wire: item, file: undefined };
    const file = byName.get(url.slice(ATTACHMENT_PREFIX.length));
    if (file === undefined) return { wire: { ...raw, proxy_url: url }, file };
    const signed = urlOf(file);
    return {
      wire: {
        ...raw,
        url: signed,
        proxy_url: signed,
        ...(file.contentType === null ? {} : { content_type: file.contentType }),
        attachment_id: file.id,
      },
      file,
    };
  };
  const resolve = (item: unknown): unknown => {
    const component = item as Wire;
    switch (component['type']) {
      case T.SECTION:
        return { ...component, accessory: resolve(component['accessory']) };
      case T.CONTAINER:
        return { ...component, components: (component['components'] as unknown[]).map(resolve) };
      case T.THUMBNAIL:
        return { ...component, media: media(component['media']).wire };
      case T.MEDIA_GALLERY:
        return {
          ...component,
          items: (component['items'] as Wire[]).map((entry) => ({
            ...entry,
            media: media(entry['media']).wire,
          })),
        };
      case T.FILE: {
        const { wire, file } = media(component['file']);
        return { ...component, file: wire, name: file?.filename ?? null, size: file?.size ?? null };
      }
      default:
        return component;
    }
  };
  return components.map(resolve);
}
