/** A real 2×2 red PNG (73 bytes): what a screenshot is, in small. */
export const TINY_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000002000000020802000000fdd49a730000001049444154789c63f8cfc000440c100a001fee03fd8b5f14d40000000049454e44ae426082',
  'hex',
);

/** The first bytes of each other format Sylvan sends (what the magic-byte check reads), padded. */
export const JPEG_START = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60)]);
export const GIF_START = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(60)]);
export const WEBP_START = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.from([0x40, 0, 0, 0]), Buffer.from('WEBPVP8 ', 'latin1'), Buffer.alloc(52)]);
