// Generates the Progressive Web App icons (apps/web/public/icons/*.png) from the logo mark
// (apps/web/public/favicon.svg) with sharp: run `node scripts/generate-pwa-icons.mjs` after changing
// the logo and commit the PNGs (the build does not run it). docs/marketing.md lists the files.
//   icon-192.png, icon-512.png   purpose "any": the mark on a rounded navy tile
//   icon-maskable-512.png        purpose "maskable": full-bleed navy, the mark inside the 80 % safe zone
//   apple-touch-icon.png (180)   iOS home screen: full-bleed navy (iOS rounds the corners itself)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'apps', 'web', 'public');
const NAVY = '#0b1630';
const mark = readFileSync(join(publicDir, 'favicon.svg'), 'utf8');
/** The mark's inner SVG (its 32×32 drawing), to nest into a larger canvas. */
const markBody = mark.replace(/^<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');

/** An SVG of `size` px: a navy background (rounded by `radiusRatio`) with the mark at `markRatio` of the side. */
function tile(size, { markRatio, radiusRatio }) {
  const markSize = size * markRatio;
  const offset = (size - markSize) / 2;
  const radius = size * radiusRatio;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
<rect width="${size}" height="${size}" rx="${radius}" fill="${NAVY}"/>
<svg x="${offset}" y="${offset}" width="${markSize}" height="${markSize}" viewBox="0 0 32 32">${markBody}</svg>
</svg>`;
}

const ICONS = [
  { file: 'icon-192.png', size: 192, markRatio: 0.7, radiusRatio: 0.22 },
  { file: 'icon-512.png', size: 512, markRatio: 0.7, radiusRatio: 0.22 },
  { file: 'icon-maskable-512.png', size: 512, markRatio: 0.56, radiusRatio: 0 },
  { file: 'apple-touch-icon.png', size: 180, markRatio: 0.64, radiusRatio: 0 },
];

for (const { file, size, ...look } of ICONS) {
  await sharp(Buffer.from(tile(size, look)))
    .png({ compressionLevel: 9 })
    .toFile(join(publicDir, 'icons', file));
  console.log(`wrote icons/${file} (${size}×${size})`);
}
