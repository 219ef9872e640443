import { describe, expect, it } from 'vitest';
import { formatCoordinates, gridUrl, previewUrl } from '../../lib/pictures.ts';
import { columnsFor, imageFacts } from './photos.ts';

describe('photo facts', () => {
  it('reads dimensions, camera, time and GPS from file metadata', () => {
    expect(
      imageFacts({
        image: {
          width: 4000,
          height: 3000,
          camera: 'Canon EOS R5',
          takenAt: '2026-05-01T10:00:00Z',
          gps: { latitude: 51.5, longitude: -0.12 },
        },
      }),
    ).toEqual({
      width: 4000,
      height: 3000,
      camera: 'Canon EOS R5',
      takenAt: '2026-05-01T10:00:00Z',
      lens: undefined,
      gps: { latitude: 51.5, longitude: -0.12 },
    });
  });

  it('ignores malformed metadata', () => {
    expect(imageFacts(null)).toEqual({});
    expect(imageFacts({ image: 'x' })).toEqual({});
    expect(imageFacts({ image: { gps: { latitude: 200, longitude: 0 }, width: 'wide' } }).gps).toBeUndefined();
    expect(imageFacts({ image: { gps: { latitude: 200, longitude: 0 }, width: 'wide' } }).width).toBeUndefined();
  });

  it('builds thumbnail URLs and coordinates', () => {
    expect(gridUrl('/objects/uploads/u')).toBe('/objects/uploads/u?variant=grid');
    expect(previewUrl('/objects/uploads/u')).toBe('/objects/uploads/u?variant=preview');
    expect(formatCoordinates({ latitude: 51.5, longitude: -0.12 })).toBe('51.50000° N, 0.12000° W');
  });

  it('fits columns to the width', () => {
    expect(columnsFor(0)).toBe(2);
    expect(columnsFor(320)).toBe(2);
    expect(columnsFor(1080)).toBe(6);
    expect(columnsFor(5000)).toBe(8);
  });
});
