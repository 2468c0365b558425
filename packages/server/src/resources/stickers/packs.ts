/**
 * Sticker packs and standard stickers (docs/guild-api.md#sticker-packs): the stickers every user
 * may send, grouped in packs. The server ships one pack of its own; each sticker's image is a
 * PNG drawn here (a disc of the sticker's colour), served at the CDN path /stickers/{id}.png
 * like a guild sticker's.
 */
import { crc32, deflateSync } from 'node:zlib';

/** Sticker type STANDARD (StickerTypes); format 1 PNG. */
const STANDARD_STICKER = 1;
const PNG_FORMAT = 1;
/** The pixel size of a standard sticker's image. */
const SIZE = 160;

interface StandardSticker {
  id: string;
  name: string;
  tags: string;
  description: string;
  /** RGB of the drawn disc. */
  color: readonly [number, number, number];
}

interface StickerPack {
  id: string;
  skuId: string;
  name: string;
  description: string;
  bannerAssetId: string;
  stickers: readonly StandardSticker[];
}

export const STICKER_PACKS: readonly StickerPack[] = [
  {
    id: '1190000000000000001',
    skuId: '1190000000000000002',
    name: 'Guildhall Basics',
    description: 'Say it with a shape.',
    bannerAssetId: '1190000000000000003',
    stickers: [
      {
        id: '1190000000000000010',
        name: 'Hello',
        tags: 'wave',
        description: 'A friendly hello',
        color: [88, 101, 242],
      },
      {
        id: '1190000000000000011',
        name: 'Thanks',
        tags: 'pray',
        description: 'Many thanks',
        color: [87, 242, 135],
      },
      {
        id: '1190000000000000012',
        name: 'Oops',
        tags: 'sweat_smile',
        description: 'A small mistake',
        color: [254, 231, 92],
      },
      {
        id: '1190000000000000013',
        name: 'Good night',
        tags: 'sleeping',
        description: 'Off to bed',
        color: [235, 69, 158],
      },
    ],
  },
];

const ALL = new Map(
  STICKER_PACKS.flatMap((pack) =>
    pack.stickers.map((s, i) => [s.id, { pack, sticker: s, sort: i + 1 }] as const),
  ),
);

function serializeStandard(pack: StickerPack, sticker: StandardSticker, sortValue: number) {
  return {
    id: sticker.id,
    name: sticker.name,
    tags: sticker.tags,
    type: STANDARD_STICKER,
    format_type: PNG_FORMAT,
    description: sticker.description,
    pack_id: pack.id,
    sort_value: sortValue,
  };
}

/** A sticker pack (StickerPackResponse). */
export function serializePack(pack: StickerPack) {
  const [cover] = pack.stickers;
  return {
    id: pack.id,
    sku_id: pack.skuId,
    name: pack.name,
    description: pack.description,
    stickers: pack.stickers.map((s, i) => serializeStandard(pack, s, i + 1)),
    ...(cover === undefined ? {} : { cover_sticker_id: cover.id }),
    banner_asset_id: pack.bannerAssetId,
  };
}

export const findPack = (id: string) => STICKER_PACKS.find((pack) => pack.id === id);

/** The standard sticker with this id, as the wire has it, or undefined. */
export function findStandardSticker(id: string) {
  const found = ALL.get(id);
  return found === undefined ? undefined : serializeStandard(found.pack, found.sticker, found.sort);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The PNG of a standard sticker: a disc of its colour on a transparent square. */
export function standardStickerPng(id: string): Buffer | null {
  const found = ALL.get(id);
  if (found === undefined) return null;
  const [r, g, b] = found.sticker.color;
  const rows: Buffer[] = [];
  const centre = (SIZE - 1) / 2;
  for (let y = 0; y < SIZE; y++) {
    const row = Buffer.alloc(1 + SIZE * 4);
    for (let x = 0; x < SIZE; x++) {
      const inside = (x - centre) ** 2 + (y - centre) ** 2 <= (SIZE / 2 - 4) ** 2;
      row.set(inside ? [r, g, b, 255] : [0, 0, 0, 0], 1 + x * 4);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
