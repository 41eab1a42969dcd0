import { QRCodeSVG } from 'qrcode.react';
import { pathTo } from '../config/paths.ts';

/**
 * QR code of this product's public download page, on the current origin; its modules take the
 * text colour of `.download-qr` (the `qrCode` colour token).
 */
export function DownloadQrCode() {
  const url = new URL(pathTo('Download'), window.location.origin).toString();
  return <QRCodeSVG value={url} size={132} level="M" marginSize={0} fgColor="currentColor" title={url} />;
}
