// Where a view opened "beside" an editor goes. ViewColumn.Beside is the column right of the active
// one, so a notebook in the second of two groups got a third: notebook and model views each shrank to
// 270 px. Beside is used only when the window has one group; otherwise the view goes into an existing
// group other than the editor's: the next one to its right, else the one to its left.

/** VS Code's ViewColumn.Beside (-2), kept here so the rule is a pure function of numbers. */
export const BESIDE = -2;

/**
 * The column to open beside the editor in column `from` (undefined: not known, taken as the first),
 * given the columns of the window's editor groups. Never a column that is not one of `groups`, unless
 * there is only one group (then BESIDE, which makes the second).
 */
export function besideColumn(from: number | undefined, groups: readonly number[]): number {
  const columns = [...new Set(groups.filter((c) => Number.isInteger(c) && c >= 1))].sort((a, b) => a - b);
  if (columns.length <= 1) return BESIDE;
  const at = from !== undefined && columns.includes(from) ? from : columns[0];
  return columns.find((c) => c > at) ?? columns.filter((c) => c < at).at(-1)!;
}
