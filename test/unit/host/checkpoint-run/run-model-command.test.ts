// "Run a Model…" (src/host/checkpoint-run/run-model-command.ts) on the vscode stand-in, over a fake
// Hugging Face cache (HF_HUB_CACHE): a model no family runs is offered, after a separator, and picking
// it shows the reason naming config.json's "model_type" and runs nothing.
import '../../../support/vscode/register.js';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QuickPickItemKind, standIn } from '../../../support/vscode/index.js';
import { runModelCommand } from '../../../../src/host/checkpoint-run/run-model-command.js';

const cache = realpathSync(mkdtempSync(join(tmpdir(), 'attn-')));
after(() => rmSync(cache, { recursive: true, force: true }));
for (const [id, type] of [['gpt2', 'gpt2'], ['google--nonesuch', 'nonesuch']]) {
  const snap = join(cache, `models--${id}`, 'snapshots', 'c0ffee');
  mkdirSync(snap, { recursive: true });
  mkdirSync(join(cache, `models--${id}`, 'refs'));
  writeFileSync(join(cache, `models--${id}`, 'refs', 'main'), 'c0ffee');
  writeFileSync(join(snap, 'config.json'), JSON.stringify({ model_type: type }));
}

test('picking a model no family runs says why, naming the config key, and opens nothing', async () => {
  standIn.reset();
  const before = process.env.HF_HUB_CACHE;
  process.env.HF_HUB_CACHE = cache;
  try {
    let offered: { label: string; kind?: number }[] = [];
    standIn.windows.state.pick = (items) => {
      offered = items as typeof offered;
      return offered.find((i) => i.label.includes('google/nonesuch'));
    };
    const opened: unknown[] = [];
    await runModelCommand((uri) => opened.push(uri));
    assert.deepEqual(offered.map((i) => (i.kind === QuickPickItemKind.Separator ? 'separator' : i.label)), ['gpt2', 'separator', '$(circle-slash) google/nonesuch', 'Choose a folder…']);
    assert.deepEqual(opened, []);
    const [message] = standIn.windows.state.messages;
    assert.equal(message.severity, 'warning');
    assert.match(message.message, /^Attention Lens cannot run google\/nonesuch: config\.json "model_type" is "nonesuch": Attention Lens runs .*gpt2.*\.$/);
  } finally {
    if (before === undefined) delete process.env.HF_HUB_CACHE;
    else process.env.HF_HUB_CACHE = before;
  }
});
