import { actionRowWire } from './actionRow.js';
import { componentType, startComponent, type BuildContext, type MessageBuild } from './context.js';
import { fail, failWith, Fields, type Wire } from './fields.js';
import { buttonWire } from './interactive.js';
import { ComponentTypes as T, LIMITS, SEPARATOR_SPACINGS } from './limits.js';

/** The components a Container holds (anything top-level but another Container). */
const CONTAINER_CHILD_TYPES = [
  T.ACTION_ROW,
  T.SECTION,
  T.TEXT_DISPLAY,
  T.MEDIA_GALLERY,
  T.FILE,
  T.SEPARATOR,
];

/** The top-level components of an IS_COMPONENTS_V2 message. */
export const V2_TOP_LEVEL_TYPES = [...CONTAINER_CHILD_TYPES, T.CONTAINER];

const MEDIA_URL = /^(https?|attachment):\/\/\S+$/i;
const ATTACHMENT_PREFIX = 'attachment://';

/**
 * An unfurled media item: only `url` is taken (http(s), or `attachment://<filename>` naming one
 * of the message's files; File components take only the latter). Its id is made here; an
 * attachment's URL is filled in when the message is serialized (resolveComponentMedia), an
 * external one is its own proxy URL.
 */
function mediaWire(build: MessageBuild, media: Fields, attachmentOnly: boolean): Wire {
  const url = media.requiredString('url', LIMITS.mediaUrl);
  if (!MEDIA_URL.test(url)) failWith(media.at('url'), 'URL_TYPE_INVALID_URL');
  const isAttachment = url.toLowerCase().startsWith(ATTACHMENT_PREFIX);
  if (attachmentOnly && !isAttachment) {
    fail(
      media.at('url'),
      'UNFURLED_MEDIA_ITEM_ATTACHMENT_REQUIRED',
      'File components only support attachment:// references.',
    );
  }
  if (!isAttachment) return { id: build.newId(), url, proxy_url: url };
  const filename = url.slice(ATTACHMENT_PREFIX.length);
  if (!build.attachmentNames.has(filename)) {
    fail(
      media.at('url'),
      'UNFURLED_MEDIA_ITEM_UNKNOWN_ATTACHMENT',
      `No attachment named "${filename}" is uploaded with this message.`,
    );
  }
  return { id: build.newId(), url };
}

/** A Text Display: markdown content of 1–4000 characters. */
export function textDisplayWire(context: BuildContext, fields: Fields): Wire {
  const wire = startComponent(context, fields, T.TEXT_DISPLAY);
  wire['content'] = fields.requiredString('content', LIMITS.textDisplay);
  return wire;
}

/** A Thumbnail (a Section's accessory): an image with alt text and a spoiler flag. */
function thumbnailWire(build: MessageBuild, fields: Fields): Wire {
  const wire = startComponent(build, fields, T.THUMBNAIL);
  wire['media'] = mediaWire(build, fields.object('media'), false);
  wire['description'] = fields.string('description', LIMITS.mediaDescription) ?? null;
  wire['spoiler'] = fields.bool('spoiler') ?? false;
  return wire;
}

/** A Section: 1–3 Text Displays with a Button or Thumbnail accessory. */
function sectionWire(build: MessageBuild, fields: Fields): Wire {
  const wire = startComponent(build, fields, T.SECTION);
  const texts = fields.array('components', { min: 1, max: LIMITS.sectionTexts });
  wire['components'] = texts.map((item, index) => {
    const child = new Fields(item, fields.at('components').concat(index));
    componentType(child, [T.TEXT_DISPLAY]);
    return textDisplayWire(build, child);
  });
  const accessory = fields.object('accessory');
  wire['accessory'] =
    componentType(accessory, [T.BUTTON, T.THUMBNAIL]) === T.BUTTON
      ? buttonWire(build, accessory)
      : thumbnailWire(build, accessory);
  return wire;
}

/** A Media Gallery: 1–10 items, each media with alt text and a spoiler flag. */
function mediaGalleryWire(build: MessageBuild, fields: Fields): Wire {
  const wire = startComponent(build, fields, T.MEDIA_GALLERY);
  const items = fields.array('items', { min: 1, max: LIMITS.galleryItems });
  wire['items'] = items.map((value, index) => {
    const item = new Fields(value, fields.at('items').concat(index));
    return {
      media: mediaWire(build, item.object('media'), false),
      description: item.string('description', LIMITS.mediaDescription) ?? null,
      spoiler: item.bool('spoiler') ?? false,
    };
  });
  return wire;
}

/** A File: one uploaded attachment (`attachment://` only); name and size come from the file. */
function fileWire(build: MessageBuild, fields: Fields): Wire {
  const wire = startComponent(build, fields, T.FILE);
  wire['file'] = mediaWire(build, fields.object('file'), true);
  wire['spoiler'] = fields.bool('spoiler') ?? false;
  return wire;
}

/** A Separator: a divider (default true) and spacing 1 SMALL (default) or 2 LARGE. */
function separatorWire(build: MessageBuild, fields: Fields): Wire {
  const wire = startComponent(build, fields, T.SEPARATOR);
  wire['spacing'] = fields.choice('spacing', SEPARATOR_SPACINGS) ?? 1;
  wire['divider'] = fields.bool('divider') ?? true;
  return wire;
}

/** A Container: the other layout and content components, an accent colour, a spoiler flag. */
function containerWire(build: MessageBuild, fields: Fields): Wire {
  const wire = startComponent(build, fields, T.CONTAINER);
  wire['accent_color'] = fields.int('accent_color', { min: 0, max: 0xffffff }) ?? null;
  const children = fields.array('components', { min: 1, max: LIMITS.v2Total });
  wire['components'] = children.map((item, index) => {
    const child = new Fields(item, fields.at('components').concat(index));
    return v2ComponentWire(build, child, componentType(child, CONTAINER_CHILD_TYPES));
  });
  wire['spoiler'] = fields.bool('spoiler') ?? false;
  return wire;
}

/** One component of an IS_COMPONENTS_V2 message (top level or in a Container), by type. */
export function v2ComponentWire(build: MessageBuild, fields: Fields, type: number): Wire {
  switch (type) {
    case T.ACTION_ROW:
      return actionRowWire(build, fields);
    case T.SECTION:
      return sectionWire(build, fields);
    case T.TEXT_DISPLAY:
      return textDisplayWire(build, fields);
    case T.MEDIA_GALLERY:
      return mediaGalleryWire(build, fields);
    case T.FILE:
      return fileWire(build, fields);
    case T.SEPARATOR:
      return separatorWire(build, fields);
    default:
      return containerWire(build, fields);
  }
}
