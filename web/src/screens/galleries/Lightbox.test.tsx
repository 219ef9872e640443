import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Lightbox } from './Lightbox.tsx';
import { testPhotos } from './testPhotos.ts';

afterEach(cleanup);

const photos = testPhotos(10);

function Stepping({ start, onNearEnd }: { start: number; onNearEnd: () => void }) {
  return <Lightbox photos={photos} index={start} onIndex={() => {}} onClose={() => {}} onNearEnd={onNearEnd} />;
}

describe('Lightbox', () => {
  it('asks for the next photos as the person nears the last one loaded, not before', () => {
    const onNearEnd = vi.fn();
    const { rerender } = render(<Stepping start={0} onNearEnd={onNearEnd} />);
    expect(screen.getByTestId('lightbox')).toBeTruthy();
    rerender(<Stepping start={6} onNearEnd={onNearEnd} />);
    expect(onNearEnd).not.toHaveBeenCalled();
    rerender(<Stepping start={7} onNearEnd={onNearEnd} />);
    expect(onNearEnd).toHaveBeenCalledTimes(1);
  });

  it('counts the photos there are, not only those loaded', () => {
    render(<Lightbox photos={photos} index={2} onIndex={() => {}} onClose={() => {}} total={10_000} />);
    expect(screen.getByText('3 of 10,000')).toBeTruthy();
  });

  it('steps with the arrow keys within the photos loaded', () => {
    const onIndex = vi.fn();
    render(<Lightbox photos={photos} index={9} onIndex={onIndex} onClose={() => {}} />);
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(onIndex).not.toHaveBeenCalled();
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    expect(onIndex).toHaveBeenCalledWith(8);
  });
});
