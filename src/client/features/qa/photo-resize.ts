import { photoLimits, qaMessages } from '../../../common/qa.ts';

/**
 * A photo of working made small on the device before it is queued (issue 39 §2), loaded only when a photo is
 * picked (the forms import it lazily): a phone camera's 3–12 MB photo becomes a JPEG of at most 1,600 pixels on
 * its long side and about 300 KB, still readable handwriting; and a 240-pixel thumbnail of about 10 KB, which is
 * what the board shows. The browser's own decoder and canvas do it: no library to download.
 */
export interface ResizedPhoto {
  full: Blob;
  thumb: Blob;
  /** The thumbnail as a data URL, to show before the server has the photo. */
  preview: string;
}

const unreadable = 'This file cannot be read as a photo. Please choose a JPEG, PNG or WebP image.';

type Canvas = HTMLCanvasElement | OffscreenCanvas;
type Source = ImageBitmap | HTMLImageElement;

const sizeOf = (source: Source) =>
  source instanceof HTMLImageElement
    ? { width: source.naturalWidth, height: source.naturalHeight }
    : { width: source.width, height: source.height };

/** The picked file decoded, turned upright as the camera's EXIF says. */
async function decode(file: Blob): Promise<Source> {
  if (typeof createImageBitmap === 'function') {
    try {
      return await createImageBitmap(file, { imageOrientation: 'from-image' });
    } catch {
      // Older WebKit: the image element below decodes what it can.
    }
  }
  // A data URL, not an object URL: the pages' CSP allows `data:` images only.
  const image = new Image();
  image.src = await dataUrlOf(file);
  try {
    await image.decode();
  } catch {
    throw new Error(unreadable);
  }
  return image;
}

/** The image at most `edge` pixels on its long side, on white (a transparent PNG would turn black as a JPEG). */
function draw(source: Source, edge: number): Canvas {
  const { width, height } = sizeOf(source);
  const scale = Math.min(1, edge / Math.max(width, height));
  const [w, h] = [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))];
  const canvas: Canvas =
    typeof OffscreenCanvas === 'function'
      ? new OffscreenCanvas(w, h)
      : Object.assign(document.createElement('canvas'), { width: w, height: h });
  const context = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
  if (!context) throw new Error(unreadable);
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, w, h);
  context.imageSmoothingQuality = 'high';
  context.drawImage(source, 0, 0, w, h);
  return canvas;
}

function encode(canvas: Canvas, quality: number): Promise<Blob> {
  if (!(canvas instanceof HTMLCanvasElement)) return canvas.convertToBlob({ type: 'image/jpeg', quality });
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error(unreadable))), 'image/jpeg', quality),
  );
}

export function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(unreadable));
    reader.readAsDataURL(blob);
  });
}

/** Qualities tried, best first; below 0.5 handwriting blurs, so the photo is made smaller instead. */
const qualities = [0.82, 0.72, 0.62, 0.5];

/** The photo as a JPEG within `photoLimits.targetBytes`, and its thumbnail. */
export async function resizePhoto(file: Blob): Promise<ResizedPhoto> {
  const source = await decode(file);
  try {
    let full: Blob | undefined;
    for (let edge: number = photoLimits.maxEdge; !full && edge >= 400; edge = Math.round(edge * 0.75)) {
      const canvas = draw(source, edge);
      for (const quality of qualities) {
        const blob = await encode(canvas, quality);
        if (blob.size <= photoLimits.targetBytes) {
          full = blob;
          break;
        }
      }
    }
    if (!full) throw new Error(qaMessages.photoTooLarge);
    const thumb = await encode(draw(source, photoLimits.thumbEdge), 0.7);
    return { full, thumb, preview: await dataUrlOf(thumb) };
  } finally {
    if (!(source instanceof HTMLImageElement)) source.close();
  }
}
