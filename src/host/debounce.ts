// Per-key debouncing: the latest call for a key wins, after `delayMs` of quiet (or the delay given to that call).
import type * as vscode from 'vscode';

export class Debouncer implements vscode.Disposable {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly delayMs: number) {}

  schedule(key: string, run: () => void, delayMs = this.delayMs): void {
    this.cancel(key);
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      run();
    }, delayMs));
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
