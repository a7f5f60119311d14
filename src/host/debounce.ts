// Per-key debouncing: the latest call for a key wins, after `delayMs` of quiet.
import type * as vscode from 'vscode';

export class Debouncer implements vscode.Disposable {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly delayMs: number) {}

  schedule(key: string, run: () => void): void {
    this.cancel(key);
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      run();
    }, this.delayMs));
  }

  cancel(key: string): void {
    const timer = this.timers.get(key);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(key);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
