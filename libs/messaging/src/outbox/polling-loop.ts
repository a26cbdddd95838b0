/**
 * Runs `pass` again and again: right away on start, then every `intervalMs` after the previous pass
 * ended, or at once when kicked (a kick during a pass runs another pass right after it). Never two
 * passes at a time; `stop()` waits for the pass in progress. The pass handles its own errors.
 * Used by the outbox relay and by the notifications mail sender.
 */
export class PollingLoop {
  private running = false;
  private timer?: NodeJS.Timeout;
  private current?: Promise<void>;
  private kicked = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly intervalMs: number,
  ) {}

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts, with a first pass right away (work left over from before a restart). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Run soon: there is new work. */
  kick(): void {
    if (!this.running) return;
    if (this.current) this.kicked = true;
    else this.schedule(0);
  }

  /** Stops scheduling and waits for the pass in progress to end. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.current;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), delayMs);
  }

  private run(): void {
    this.kicked = false;
    this.current = this.pass().finally(() => {
      this.current = undefined;
      if (this.running) this.schedule(this.kicked ? 0 : this.intervalMs);
    });
  }
}
