/**
 * How much of a demo's hour is stored (it loads newest first, reported as a fraction), and who
 * waits for how much: the first look asks its newest minutes once they are in.
 */
export class LoadProgress {
  private fraction = 0;
  private waiting: { at: number; go: () => void }[] = [];

  /** The load reached `fraction`: whoever waits for as much goes on. */
  report(fraction: number): void {
    this.fraction = fraction;
    const go = this.waiting.filter((w) => w.at <= fraction);
    this.waiting = this.waiting.filter((w) => w.at > fraction);
    for (const w of go) w.go();
  }

  /** Resolves once `fraction` is stored, or once `ended` (the whole load) settles, whichever is first. */
  reached(fraction: number, ended: Promise<unknown>): Promise<void> {
    if (this.fraction >= fraction) return Promise.resolve();
    const reached = new Promise<void>((go) => this.waiting.push({ at: fraction, go }));
    return Promise.race([reached, ended.then(() => undefined, () => undefined)]);
  }
}
