// Hovers in a spec's editor: over a token, whom it attends to most in each head; over a weight
// matrix, its shape and role. They read the result model the analysis cache holds (the document's
// last good version: the same analysis the diagnostics and the panel use, never one of their own).
// The text and its escaping come from the pure core (hover-text.ts).
import * as vscode from 'vscode';
import { escapeMarkdown, hoverAt } from '../../core/result/hover-text.js';
import type { AnalysisCache } from '../analysis/cache.js';
import { spanToRange } from './ranges.js';
import { SPEC_GLOB } from '../spec-documents.js';

export function registerSpecHovers(cache: AnalysisCache): vscode.Disposable {
  return vscode.languages.registerHoverProvider({ pattern: SPEC_GLOB }, {
    async provideHover(document, position) {
      const text = document.getText();
      const offset = document.offsetAt(position);
      const hover = hoverAt(text, offset, await cache.lastGoodData(document));
      if (!hover) return undefined;
      const lines = [`**${escapeMarkdown(hover.heading)}**`, '', ...hover.lines.map((l) => `${escapeMarkdown(l)}  `)];
      const markdown = new vscode.MarkdownString(lines.join('\n'));
      return new vscode.Hover(markdown, hover.span && spanToRange(document, hover.span));
    },
  });
}
