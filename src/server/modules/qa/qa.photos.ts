import { photoLimits, type PhotoType } from '../../../common/qa.ts';
import { createPhotoTooLargeError, createPhotoTypeError, createTooManyPhotosError } from './qa.errors.ts';

/** A photo as a post brings it: its client-made id, the resized photo and its thumbnail, as sent. */
export interface PhotoUpload {
  id: string;
  bytes: Uint8Array;
  thumb: Uint8Array;
}

/** A photo whose bytes passed: their types, as the bytes say. */
export interface CheckedPhoto extends PhotoUpload {
  contentType: PhotoType;
  thumbType: PhotoType;
}

const startsWith = (bytes: Uint8Array, at: number, signature: readonly number[]) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0));

/**
 * The type the bytes themselves say, by the three formats' signatures, whatever name or type the client gave
 * them; undefined for anything else (a text file named .jpg, an SVG, a GIF, HEIC). Three fixed signatures: the
 * `file-type` package would read the same bytes for 100-odd formats we refuse anyway, with four dependencies.
 * JPEG: FF D8 FF; PNG: its 8-byte signature; WebP: a RIFF container of form type WEBP
 * (https://mimesniff.spec.whatwg.org/#matching-an-image-type-pattern).
 */
export function imageTypeOf(bytes: Uint8Array): PhotoType | undefined {
  if (startsWith(bytes, 0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, 0, ascii('RIFF')) && startsWith(bytes, 8, ascii('WEBP'))) return 'image/webp';
  return undefined;
}

/** A post's photos checked: at most three, distinct ids, each size under its cap, each a JPEG, PNG or WebP. */
export function checkPhotos(uploads: readonly PhotoUpload[]): CheckedPhoto[] {
  if (uploads.length > photoLimits.perPost || new Set(uploads.map((u) => u.id)).size !== uploads.length)
    throw createTooManyPhotosError();
  return uploads.map((upload) => {
    if (upload.bytes.byteLength > photoLimits.maxBytes || upload.thumb.byteLength > photoLimits.thumbMaxBytes)
      throw createPhotoTooLargeError();
    const contentType = imageTypeOf(upload.bytes);
    const thumbType = imageTypeOf(upload.thumb);
    if (!contentType || !thumbType) throw createPhotoTypeError();
    return { ...upload, contentType, thumbType };
  });
}
