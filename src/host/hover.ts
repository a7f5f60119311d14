// Hovers in a spec's editor: over a token, whom it attends to most in each head; over a weight
// matrix, its shape and role. The text comes from the pure core (hover-text.ts); this only escapes it.
import * as vscode from 'vscode';
import { hoverAt } from '../core/hover-text.js';
import type { AnalysisCache } from './analysis-cache.js';
import { spanToRange } from './ranges.js';
import { SPEC_GLOB } from './spec-files.js';

export function registerSpecHovers(cache: AnalysisCache): vscode.Disposable {
  return vscode.languages.registerHoverProvider({ pattern: SPEC_GLOB }, {
    provideHover(document, position) {
      const text = document.getText();
      const hover = hoverAt(text, document.offsetAt(position), cache.lastGoodJson(document));
      if (!hover) return undefined;
      const markdown = new vscode.MarkdownString();
      markdown.appendMarkdown('**');
      markdown.appendText(hover.heading);
      markdown.appendMarkdown('**\n\n');
      for (const line of hover.lines) {
        markdown.appendText(line);
        markdown.appendMarkdown('  \n');
      }
      return new vscode.Hover(markdown, hover.span && spanToRange(document, hover.span));
    },
  });
}
