import { describe, expect, it, vi } from 'vitest';
import { loadOnce } from './loadOnce.ts';

describe('loadOnce', () => {
  it('loads once however many times it is asked, all at once or later', async () => {
    const load = vi.fn(async () => ({ default: 'Screen' }));
    const screen = loadOnce(load);
    const [first, second] = await Promise.all([screen(), screen()]);
    const third = await screen();
    expect(load).toHaveBeenCalledTimes(1);
    expect(second).toBe(first);
    expect(third).toBe(first);
  });

  it('tries again after a load that failed, then keeps the one that worked', async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('network down'))
      .mockResolvedValue('Screen');
    const screen = loadOnce(load);
    await expect(screen()).rejects.toThrow('network down');
    await expect(screen()).resolves.toBe('Screen');
    await expect(screen()).resolves.toBe('Screen');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
