import 'leaflet/dist/leaflet.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { CircleMarker, GeoJSON, MapContainer, TileLayer, Tooltip } from 'react-leaflet';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import land from 'world-atlas/land-110m.json';
import { dataRequest } from '../../lib/http.ts';
import { formatCoordinates } from '../../lib/pictures.ts';
import type { Photo } from './photos.ts';

/** What the map needs of a photo: the gallery's photos and a review page's both have it. */
export type MapPhoto = Pick<Photo, 'id' | 'name' | 'gps'>;

/** The geotagged photos as a list of coordinates: the map's text alternative. */
export function CoordinateList({
  photos,
  onOpen,
}: {
  photos: readonly MapPhoto[];
  /** Called with a photo's id when its marker or its line is chosen. */
  onOpen: (photoId: string) => void;
}) {
  return (
    <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-700" data-testid="coordinate-list">
      {photos.map((photo) => (
        <li key={photo.id} className="flex items-center justify-between gap-2 py-2">
          <button
            type="button"
            className="truncate text-left font-medium text-indigo-600 hover:underline dark:text-indigo-400"
            onClick={() => onOpen(photo.id)}
          >
            {photo.name}
          </button>
          <span className="shrink-0 font-mono text-xs text-slate-600 dark:text-slate-400">
            {photo.gps && formatCoordinates(photo.gps)}
          </span>
        </li>
      ))}
    </ul>
  );
}

export interface MapConfig {
  tileUrl: string;
  attribution: string;
}

// MAP_TILE_URL is read once by the server; one request per page load is enough.
let mapConfig: Promise<MapConfig> | undefined;

// Natural Earth's 1:110m land (public domain, via world-atlas), converted on first use.
let outline: ReturnType<typeof feature> | undefined;
function worldOutline() {
  const topology = land as unknown as Topology<{ land: GeometryCollection }>;
  outline ??= feature(topology, topology.objects.land);
  return outline;
}

/**
 * A marker per geotagged photo over tiles from the server's MAP_TILE_URL. When no tile can be
 * loaded (offline, behind a firewall), the markers stay, over a world outline shipped with the app.
 */
export default function PhotoMap({
  photos,
  onOpen,
  tiles,
}: {
  photos: readonly MapPhoto[];
  /** Called with a photo's id when its marker or its line is chosen. */
  onOpen: (photoId: string) => void;
  /** The tile settings when the page has them already (a review page, which has no session). */
  tiles?: MapConfig;
}) {
  const located = useMemo(() => photos.filter((p) => p.gps), [photos]);
  const [config, setConfig] = useState<MapConfig | null>(null);
  const [tilesFailed, setTilesFailed] = useState(false);
  // One failing tile at the edge of a map that otherwise loads is no reason to drop the tiles.
  const anyTileLoaded = useRef(false);
  const bounds = useMemo(
    () => located.map((p) => [p.gps?.latitude ?? 0, p.gps?.longitude ?? 0] as [number, number]),
    [located],
  );

  useEffect(() => {
    if (tiles) {
      setConfig(tiles);
      return;
    }
    let active = true;
    mapConfig ??= dataRequest<MapConfig>('GET', '/api/map/config');
    mapConfig.then(
      (loaded) => active && setConfig(loaded),
      () => {
        mapConfig = undefined;
        if (active) setTilesFailed(true);
      },
    );
    return () => {
      active = false;
    };
  }, [tiles]);

  if (located.length === 0) {
    return <p className="text-sm text-slate-500 dark:text-slate-400">No photos in this gallery have GPS data.</p>;
  }
  // The outline is coarse: it is no use closer in than a country.
  const closest = tilesFailed ? 5 : 14;
  return (
    <div className="space-y-2" data-testid="photo-map">
      {tilesFailed && (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Map tiles could not be loaded: showing a simple world outline.
        </p>
      )}
      <div className="h-80 overflow-hidden rounded-lg border border-slate-200 dark:border-slate-700">
        <MapContainer
          // Bounds and zoom are only read when the map is made: a new map for the outline.
          key={tilesFailed ? 'outline' : 'tiles'}
          bounds={bounds.length > 1 ? bounds : undefined}
          center={bounds.length === 1 ? bounds[0] : undefined}
          zoom={bounds.length === 1 ? closest : undefined}
          boundsOptions={{ padding: [24, 24], maxZoom: closest }}
          scrollWheelZoom={false}
          className={`h-full w-full ${tilesFailed ? 'bg-sky-100! dark:bg-slate-950!' : ''}`}
        >
          {tilesFailed ? (
            <GeoJSON
              data={worldOutline()}
              style={{
                className: 'world-outline fill-slate-200 stroke-slate-400 dark:fill-slate-700 dark:stroke-slate-500',
                weight: 1,
                fillOpacity: 1,
              }}
              interactive={false}
            />
          ) : (
            config && (
              <TileLayer
                url={config.tileUrl}
                attribution={config.attribution}
                eventHandlers={{
                  tileload: () => {
                    anyTileLoaded.current = true;
                  },
                  tileerror: () => {
                    if (!anyTileLoaded.current) setTilesFailed(true);
                  },
                }}
              />
            )
          )}
          {located.map((photo) => (
            <CircleMarker
              key={photo.id}
              center={[photo.gps?.latitude ?? 0, photo.gps?.longitude ?? 0]}
              radius={8}
              // Leaflet gives a path its class only when it draws it first; pathOptions come later
              // (setStyle), so a class there was seen only after StrictMode's second mount in development.
              className="photo-marker"
              pathOptions={{ color: '#4f46e5', fillOpacity: 0.8 }}
              eventHandlers={{ click: () => onOpen(photo.id) }}
            >
              <Tooltip>{photo.name}</Tooltip>
            </CircleMarker>
          ))}
        </MapContainer>
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-slate-600 dark:text-slate-400">Coordinates</summary>
        <CoordinateList photos={located} onOpen={onOpen} />
      </details>
    </div>
  );
}
