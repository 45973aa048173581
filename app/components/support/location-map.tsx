import leafletCss from "leaflet/dist/leaflet.css?url";
import { useEffect, useRef } from "react";
import { cn } from "~/utils/cn";

export type MapTilesConfig = { url: string; attribution: string };

/** Routes that show a map add Leaflet's stylesheet through their `links`. */
export const mapLinks = () => [{ rel: "stylesheet", href: leafletCss }];

/** The spec's map zoom. */
export const MAP_ZOOM = 15;

const PIN =
  '<svg viewBox="0 0 24 36" width="24" height="36" aria-hidden="true"><path d="M12 0C5.4 0 0 5.4 0 12c0 9 12 24 12 24s12-15 12-24C24 5.4 18.6 0 12 0z" fill="#dc2626"/><circle cx="12" cy="12" r="4.5" fill="#fff"/></svg>';

/**
 * A Leaflet map centred on one position with a marker. Leaflet touches `window`, so it is loaded in the
 * browser only, after hydration; the server renders the labelled, sized box it fills.
 */
export function LocationMap({
  latitude,
  longitude,
  tiles,
  label,
  markerLabel,
  zoom = MAP_ZOOM,
  interactive = true,
  className,
  testId,
}: {
  latitude: number;
  longitude: number;
  tiles: MapTilesConfig;
  label: string;
  markerLabel: string;
  zoom?: number;
  interactive?: boolean;
  className?: string;
  testId?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let map: import("leaflet").Map | undefined;
    let cancelled = false;
    void import("leaflet").then((mod) => {
      const L = (mod as unknown as { default?: typeof import("leaflet") }).default ?? mod;
      if (cancelled || !box.current) return;
      map = L.map(box.current, {
        center: [latitude, longitude],
        zoom,
        dragging: interactive,
        scrollWheelZoom: interactive,
        doubleClickZoom: interactive,
        touchZoom: interactive,
        boxZoom: interactive,
        keyboard: interactive,
        zoomControl: interactive,
      });
      L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19 }).addTo(map);
      L.marker([latitude, longitude], {
        icon: L.divIcon({ html: PIN, className: "location-pin", iconSize: [24, 36], iconAnchor: [12, 36] }),
        title: markerLabel,
        alt: markerLabel,
        keyboard: interactive,
      }).addTo(map);
      box.current.dataset.ready = "1";
    });
    return () => {
      cancelled = true;
      map?.remove();
    };
  }, [latitude, longitude, zoom, interactive, tiles.url, tiles.attribution, markerLabel]);
  return <div ref={box} role="region" aria-label={label} data-testid={testId} data-zoom={zoom} className={cn("z-0 overflow-hidden rounded-md border bg-muted", className)} />;
}
