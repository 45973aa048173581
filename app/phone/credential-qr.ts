import QRCode from "qrcode";

/**
 * A credential's QR code as an SVG data URL: what a board's camera (or the board simulator's reader) scans
 * when the phone presents a key. The page's CSP allows `data:` images and nothing remote. Byte mode with
 * the lowest error correction: a credential (about a kilobyte) fits well within a QR code's 2,953 bytes.
 */
export async function credentialQr(token: string): Promise<string> {
  const svg = await QRCode.toString(token, { type: "svg", margin: 2, errorCorrectionLevel: "L" });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
