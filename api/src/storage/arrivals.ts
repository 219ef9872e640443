/**
 * The uploads whose bytes are arriving in this process right now (a PUT or a tus PATCH), and when
 * the last of them ended. Work that can wait (thumbnails) asks for a quiet moment first: on a
 * server's few cores, a picture being decoded beside an upload slowed the upload's answer by a
 * third or more (bench:upload, `photos.ratioToBytes`).
 */
export class Arrivals extends Set<string> {
  private lastEndedAt = 0;

  override delete(uploadId: string) {
    const had = super.delete(uploadId);
    if (had && this.size === 0) this.lastEndedAt = Date.now();
    return had;
  }

  /**
   * Resolves once no bytes have been arriving for `quietMs`, or after `maxWaitMs` however busy:
   * during a long batch of uploads the waiting work still moves, only more slowly.
   */
  async quiet({ quietMs, maxWaitMs, pollMs = 25 }: { quietMs: number; maxWaitMs: number; pollMs?: number }) {
    const giveUpAt = Date.now() + maxWaitMs;
    while (Date.now() < giveUpAt) {
      const quietFor = this.size > 0 ? 0 : Date.now() - this.lastEndedAt;
      if (quietFor >= quietMs) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, quietMs - quietFor)));
    }
  }
}
