import sharp from 'sharp';

/** A solid-colour PNG made with sharp (no fixtures on disk). */
export async function pngBuffer(width = 64, height = 48, background = { r: 200, g: 30, b: 60 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
}

/** A JPEG that carries EXIF with a GPS position (44°49'N, 20°27'E: Belgrade) and a camera make. */
export async function jpegWithGps(width = 80, height = 60): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Leaky 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '44/1 49/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '20/1 27/1 0/1' },
    })
    .toBuffer();
}

export const HTML_BYTES = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');

export interface FilePart {
  name: string;
  data: Buffer | Uint8Array;
  type?: string;
}

/** A multipart body with one `image` part per file, as the original client sends it. */
export function imagesForm(files: FilePart[], field = 'image'): FormData {
  const form = new FormData();
  for (const f of files) {
    form.append(field, new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }), f.name);
  }
  return form;
}
