import { describe, expect, it } from "vitest";
import { mapTiles, OSM_TILES, tileImageSource } from "./map-tiles.server";

describe("tileImageSource", () => {
  it("is the template's origin", () => {
    expect(tileImageSource("https://tile.openstreetmap.org/{z}/{x}/{y}.png")).toBe("https://tile.openstreetmap.org");
    expect(tileImageSource("http://127.0.0.1:4321/tiles/{z}/{x}/{y}.png")).toBe("http://127.0.0.1:4321");
    expect(tileImageSource("https://{s}.tile.example.org/{z}/{x}/{y}.png")).toBe("https://*.tile.example.org");
  });

  it("refuses what is not an http(s) tile template", () => {
    expect(tileImageSource("https://tile.example.org/static.png")).toBeNull();
    expect(tileImageSource("javascript:alert(1)//{z}{x}{y}")).toBeNull();
    expect(tileImageSource("https://a.example.org{z}/{x}/{y}")).toBeNull();
    expect(tileImageSource("https://user:pw@tile.example.org/{z}/{x}/{y}.png")).toBeNull();
    expect(tileImageSource("https://tile.example.org; img-src */{z}/{x}/{y}")).toBeNull();
  });
});

describe("mapTiles", () => {
  it("defaults to OpenStreetMap and takes the configured template and attribution", () => {
    expect(mapTiles({})).toEqual(OSM_TILES);
    expect(mapTiles({ MAP_TILE_URL: "http://127.0.0.1:9/{z}/{x}/{y}.png", MAP_TILE_ATTRIBUTION: "Local" })).toEqual({
      url: "http://127.0.0.1:9/{z}/{x}/{y}.png",
      attribution: "Local",
    });
    expect(mapTiles({ MAP_TILE_URL: "ftp://x/{z}/{x}/{y}" })).toBeNull();
  });
});
