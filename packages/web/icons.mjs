// The students' app's icons, drawn at build time (no binary in the repository): a star on a plate, on the app's
// colour. PNG written with Node's zlib: RGBA, 8 bits, one IDAT. `any` icons have rounded corners and a transparent
// outside; the maskable one fills its square and keeps the drawing inside the safe zone (the middle 80 %).
import { deflateSync } from 'node:zlib';

/** The app's colour (its manifest's theme and background colours name the same). */
export const iconColour = [0x0b, 0x5c, 0x4a];

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
function png(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y += 1) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A five-pointed star around (0, 0) of outer radius 1, as a polygon. */
const star = Array.from({ length: 10 }, (_, index) => {
  const radius = index % 2 === 0 ? 1 : 0.45;
  const angle = -Math.PI / 2 + (index * Math.PI) / 5;
  return [radius * Math.cos(angle), radius * Math.sin(angle)];
});
function insidePolygon(x, y, polygon) {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i, i += 1) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The colour at (u, v) in [-1, 1]², or null outside the icon. `scale` shrinks the drawing (the maskable safe zone). */
function colourAt(u, v, maskable) {
  const scale = maskable ? 0.8 : 1;
  if (!maskable) {
    // A square with rounded corners (radius 0.35 of the half side).
    const corner = 0.35;
    const dx = Math.max(Math.abs(u) - (1 - corner), 0);
    const dy = Math.max(Math.abs(v) - (1 - corner), 0);
    if (dx * dx + dy * dy > corner * corner) return null;
  }
  const x = u / scale;
  const y = v / scale;
  const distance = Math.hypot(x, y);
  if (insidePolygon(x / 0.48, (y - 0.02) / 0.48, star)) return [0xf5, 0xb7, 0x00];
  if (distance < 0.7 && distance > 0.62) return [0xd6, 0xe6, 0xe1];
  if (distance < 0.78) return [0xff, 0xff, 0xff];
  return iconColour;
}

/** One icon as PNG bytes: `size` pixels square, 4×4 samples per pixel. */
export function drawIcon(size, { maskable = false } = {}) {
  const rgba = Buffer.alloc(size * size * 4);
  const samples = 4;
  for (let py = 0; py < size; py += 1) {
    for (let px = 0; px < size; px += 1) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < samples; sy += 1) {
        for (let sx = 0; sx < samples; sx += 1) {
          const u = ((px + (sx + 0.5) / samples) / size) * 2 - 1;
          const v = ((py + (sy + 0.5) / samples) / size) * 2 - 1;
          const colour = colourAt(u, v, maskable);
          if (colour === null) continue;
          r += colour[0];
          g += colour[1];
          b += colour[2];
          a += 1;
        }
      }
      const offset = (py * size + px) * 4;
      if (a > 0)
        rgba.set(
          [Math.round(r / a), Math.round(g / a), Math.round(b / a), Math.round((a / (samples * samples)) * 255)],
          offset,
        );
    }
  }
  return png(size, rgba);
}
