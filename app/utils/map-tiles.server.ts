/**
 * Where ticket maps fetch their tiles (decision 0027): a URL template (`{z}/{x}/{y}`, optionally `{s}`
 * subdomains) and its attribution, from the Worker's `MAP_TILE_URL` / `MAP_TILE_ATTRIBUTION` vars.
 * The page CSP allows images from exactly this template's origin and nothing else.
 */
export type MapTiles = { url: string; attribution: string };

export const OSM_TILES: MapTiles = {
  url: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
  attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
};

/**
 * The CSP source of a tile template: `https://tile.example.org`, or `https://*.tile.example.org` for a
 * `{s}` subdomain template. Null for anything that is not an http(s) template with `{z}`, `{x}` and `{y}`.
 */
export function tileImageSource(template: string): string | null {
  if (!/\{z\}/.test(template) || !/\{x\}/.test(template) || !/\{y\}/.test(template)) return null;
  const m = /^(https?):\/\/(\{s\}\.)?([^/{}?#]+)(\/.*)?$/.exec(template.trim());
  if (!m) return null;
  try {
    const url = new URL(`${m[1]}://${m[3]}/`);
    if (url.username || url.password) return null;
    return `${url.protocol}//${m[2] ? "*." : ""}${url.host}`;
  } catch {
    return null;
  }
}

/** The configured tiles; the OpenStreetMap default when unset, null (no maps) when the template is unusable. */
export function mapTiles(env: { MAP_TILE_URL?: string; MAP_TILE_ATTRIBUTION?: string }): MapTiles | null {
  const url = env.MAP_TILE_URL?.trim() || OSM_TILES.url;
  if (!tileImageSource(url)) return null;
  const attribution = env.MAP_TILE_URL?.trim() ? (env.MAP_TILE_ATTRIBUTION ?? "") : OSM_TILES.attribution;
  return { url, attribution: attribution.slice(0, 500) };
}
