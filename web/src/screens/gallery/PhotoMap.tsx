import 'leaflet/dist/leaflet.css';
import { useMemo, useState } from 'react';
import { CircleMarker, MapContainer, TileLayer, Tooltip } from 'react-leaflet';
import { formatCoordinates, type Photo } from './photos.ts';

/** The geotagged photos as a list of coordinates: the map's fallback, and its text alternative. */
export function CoordinateList({ photos, onOpen }: { photos: readonly Photo[]; onOpen: (photo: Photo) => void }) {
  return (
    <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-700" data-testid="coordinate-list">
      {photos.map((photo) => (
        <li key={photo.id} className="flex items-center justify-between gap-2 py-2">
          <button
            type="button"
            className="truncate text-left font-medium text-indigo-600 hover:underline dark:text-indigo-400"
            onClick={() => onOpen(photo)}
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

/**
 * OpenStreetMap with a marker per geotagged photo. When tiles cannot load (offline, blocked), it
 * shows the coordinates as a list instead of a grey box.
 */
export default function PhotoMap({ photos, onOpen }: { photos: readonly Photo[]; onOpen: (photo: Photo) => void }) {
  const located = useMemo(() => photos.filter((p) => p.gps), [photos]);
  const [tilesFailed, setTilesFailed] = useState(false);
  const bounds = useMemo(
    () => located.map((p) => [p.gps?.latitude ?? 0, p.gps?.longitude ?? 0] as [number, number]),
    [located],
  );

  if (located.length === 0) {
    return <p className="text-sm text-slate-500 dark:text-slate-400">No photos in this gallery have GPS data.</p>;
  }
  if (tilesFailed) {
    return (
      <div>
        <p className="mb-2 text-sm text-slate-500 dark:text-slate-400">The map could not be loaded. Photo locations:</p>
        <CoordinateList photos={located} onOpen={onOpen} />
      </div>
    );
  }
  return (
    <div className="space-y-2">
      <div
        className="h-80 overflow-hidden rounded-lg border border-slate-200 dark:border-slate-700"
        data-testid="photo-map"
      >
        <MapContainer
          bounds={bounds.length > 1 ? bounds : undefined}
          center={bounds.length === 1 ? bounds[0] : undefined}
          zoom={bounds.length === 1 ? 14 : undefined}
          boundsOptions={{ padding: [24, 24] }}
          scrollWheelZoom={false}
          className="h-full w-full"
        >
          <TileLayer
            attribution='&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'
            url="https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png"
            eventHandlers={{ tileerror: () => setTilesFailed(true) }}
          />
          {located.map((photo) => (
            <CircleMarker
              key={photo.id}
              center={[photo.gps?.latitude ?? 0, photo.gps?.longitude ?? 0]}
              radius={8}
              pathOptions={{ color: '#4f46e5', fillOpacity: 0.8 }}
              eventHandlers={{ click: () => onOpen(photo) }}
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
