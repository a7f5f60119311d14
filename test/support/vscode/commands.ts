// The `vscode` stand-in's commands (see index.ts): registerCommand refuses a second registration of an
// id, as VS Code does; executeCommand runs a registered command, or one of the two built-ins the host
// uses ('setContext', kept for the test to read; 'vscode.openWith', which opens the custom editor
// registered for the view type); any other id rejects, as an unknown command does in VS Code.
import { windows } from './window.js';
import { Uri, type ViewColumn } from './values.js';

const state = {
  registered: new Map<string, (...args: unknown[]) => unknown>(),
  /** The when-clause context keys set through 'setContext'. */
  context: new Map<string, unknown>(),
  /** Every command executed, with its arguments, in order. */
  executed: [] as { command: string; args: unknown[] }[],
};

export const commands = {
  registerCommand(command: string, callback: (...args: unknown[]) => unknown, thisArg?: unknown) {
    if (state.registered.has(command)) throw new Error(`command '${command}' already exists`);
    state.registered.set(command, (...args) => callback.apply(thisArg, args));
    return { dispose: () => { state.registered.delete(command); } };
  },

  async executeCommand<T>(command: string, ...args: unknown[]): Promise<T> {
    state.executed.push({ command, args });
    const registered = state.registered.get(command);
    if (registered) return await registered(...args) as T;
    if (command === 'setContext') {
      state.context.set(String(args[0]), args[1]);
      return undefined as T;
    }
    if (command === 'vscode.openWith' && args[0] instanceof Uri) {
      // The third argument is a column or { viewColumn, preserveFocus, preview }, as VS Code takes either.
      const where = args[2] as ViewColumn | { viewColumn?: ViewColumn } | undefined;
      await windows.openCustomEditor(args[0], String(args[1]), typeof where === 'object' ? where.viewColumn : where);
      return undefined as T;
    }
    throw new Error(`command '${command}' not found`);
  },
};

export const commandRegistry = {
  state,
  reset(): void {
    state.registered.clear();
    state.context.clear();
    state.executed = [];
  },
};
