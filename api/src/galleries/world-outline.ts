import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

// The world's land as the web map draws it offline (web/src/screens/galleries/PhotoMap.tsx):
// Natural Earth's 1:110m land, public domain, from the same world-atlas package, read on first use.

type Ring = [number, number][];
let rings: Ring[] | undefined;

/**
 * A ring that crosses the antimeridian jumps from 180° to -180°: drawn as is, that jump is a line
 * across the whole world. Kept continuous instead (longitudes past 180°), it is the coast it is.
 */
function unwrapped(ring: Ring): Ring {
  let shift = 0;
  const continuous = ring.map(([longitude, latitude], i): [number, number] => {
    const before = ring[i - 1];
    if (before) {
      const jump = longitude - before[0];
      if (jump > 180) shift -= 360;
      else if (jump < -180) shift += 360;
    }
    return [longitude + shift, latitude];
  });
  // Where the ring began decides which side got moved: moved back so that it starts at -180° or east of it.
  const west = Math.min(...continuous.map(([longitude]) => longitude));
  const back = west < -180 ? 360 * Math.ceil((-180 - west) / 360) : 0;
  return back ? continuous.map(([longitude, latitude]) => [longitude + back, latitude]) : continuous;
}

/** Every ring of every land polygon, as [longitude, latitude] points. */
export function landRings(): Ring[] {
  if (rings) return rings;
  const topology = createRequire(import.meta.url)('world-atlas/land-110m.json') as Topology<{
    land: GeometryCollection;
  }>;
  const land = feature(topology, topology.objects.land);
  const found: Ring[] = [];
  for (const shape of land.features) {
    const geometry = shape.geometry;
    const polygons =
      geometry.type === 'Polygon'
        ? [geometry.coordinates]
        : geometry.type === 'MultiPolygon'
          ? geometry.coordinates
          : [];
    for (const polygon of polygons) for (const ring of polygon) found.push(unwrapped(ring as Ring));
  }
  rings = found;
  return found;
}
