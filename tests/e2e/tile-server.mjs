// A map tile server on 127.0.0.1 for the end-to-end run, so ticket maps never reach the internet.
// Every /{z}/{x}/{y}.png answers the same 256x256 PNG; GET /hits lists the tiles served so far.
import { createServer } from "node:http";
import { deflateSync } from "node:zlib";

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) throw new Error("usage: node tile-server.mjs <port>");

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
};

/** A light green 256x256 RGB tile. */
function tile() {
  const size = 256;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) rows.set([200, 230, 201], y * (size * 3 + 1) + 1 + x * 3);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", header), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

const png = tile();
const hits = [];
createServer((req, res) => {
  const path = new URL(req.url ?? "/", "http://tiles").pathname;
  if (path === "/hits") {
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(hits));
    return;
  }
  if (/^\/\d+\/\d+\/\d+\.png$/.test(path)) {
    hits.push(path);
    res.writeHead(200, { "Content-Type": "image/png", "Content-Length": png.length, "Cache-Control": "no-store" }).end(png);
    return;
  }
  res.writeHead(path === "/health" ? 200 : 404).end();
}).listen(port, "127.0.0.1");
