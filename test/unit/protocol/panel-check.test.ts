import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isIndex, isOneOf, isPanelState, isWebviewMessage } from '../../../src/protocol/panel-check.js';
import { isObject } from '../../../src/core/json/object.js';
import { EXPORT_FORMATS, MATRIX_MODES, ROLES, VIEW_NAMES } from '../../../src/protocol/panel.js';
import { restoreState } from '../../../webview/panel/state.js';

const uri = 'file:///w/apple.attn.json';
const state = { documentUri: uri, view: 'arcs', head: 1, input: 0, token: 2 };

describe('isWebviewMessage', () => {
  it('accepts every message kind of the protocol', () => {
    const good: unknown[] = [
      { type: 'ready' },
      { type: 'painted', documentUri: uri, version: 3, view: 'matrix', drawMs: 4.5 },
      { type: 'reveal', documentUri: uri, target: { kind: 'token', input: 0, token: 3 } },
      { type: 'reveal', documentUri: uri, target: { kind: 'matrix', role: 'wq', head: 1, row: 2, col: 0 } },
      { type: 'reveal', documentUri: uri, target: { kind: 'matrix', role: 'wo' } },
      { type: 'reveal', documentUri: uri, target: { kind: 'position', line: 1, column: 1 } },
      { type: 'state', state },
      { type: 'state', state: { ...state, head: 'all', matrixMode: 'weights', projection: 'wv', locked: true } },
      { type: 'exportResult', requestId: 1, format: 'svg', data: '<svg/>' },
      { type: 'exportResult', requestId: 2, format: 'png', data: 'data:image/png;base64,AAAA' },
      { type: 'openNext', documentUri: uri, file: 'apple-watch-lens.attn.json' },
      { type: 'openElsewhere', documentUri: uri },
    ];
    for (const m of good) assert.equal(isWebviewMessage(m), true, JSON.stringify(m));
  });

  it('rejects what is not an object or has an unknown type', () => {
    for (const m of [null, undefined, 42, 'ready', [], [{ type: 'ready' }], {}, { type: 'render' }, { type: 'lock', locked: true }]) {
      assert.equal(isWebviewMessage(m), false, JSON.stringify(m));
    }
  });

  it('rejects a rendered message with a bad version, view or time', () => {
    const base = { type: 'painted', documentUri: uri, version: 3, view: 'arcs', drawMs: 1 };
    for (const bad of [
      { version: -1 }, { version: 1.5 }, { version: '3' }, { view: 'pie' }, { drawMs: NaN },
      { drawMs: Infinity }, { drawMs: -1 }, { documentUri: 7 },
    ]) {
      assert.equal(isWebviewMessage({ ...base, ...bad }), false, JSON.stringify(bad));
    }
  });

  it('rejects reveal targets that are not indices or of an unknown kind', () => {
    const reveal = (target: unknown) => ({ type: 'reveal', documentUri: uri, target });
    for (const t of [
      undefined, { kind: 'token', input: 0 }, { kind: 'token', input: -1, token: 0 },
      { kind: 'matrix', role: 'wx' }, { kind: 'matrix', role: 'wq', row: 0.5 },
      { kind: 'position', line: 0, column: 1 }, { kind: 'position', line: 1, column: '1' },
      { kind: 'file', path: '/etc/passwd' },
    ]) {
      assert.equal(isWebviewMessage(reveal(t)), false, JSON.stringify(t));
    }
  });

  it('rejects exports with an unknown format, non-string data or bad id', () => {
    const base = { type: 'exportResult', requestId: 1, format: 'svg', data: '<svg/>' };
    for (const bad of [{ format: 'pdf' }, { data: 12 }, { requestId: 'x' }, { requestId: -2 }]) {
      assert.equal(isWebviewMessage({ ...base, ...bad }), false, JSON.stringify(bad));
    }
  });
});

describe('isPanelState', () => {
  it('requires uri, view, head, input and token', () => {
    assert.equal(isPanelState(state), true);
    for (const key of Object.keys(state)) {
      const partial: Record<string, unknown> = { ...state };
      delete partial[key];
      assert.equal(isPanelState(partial), false, `without ${key}`);
    }
  });

  it('checks the optional fields when present', () => {
    assert.equal(isPanelState({ ...state, matrixMode: 'softmax' }), false);
    assert.equal(isPanelState({ ...state, projection: 'wz' }), false);
    assert.equal(isPanelState({ ...state, locked: 'yes' }), false);
    assert.equal(isPanelState({ ...state, head: 'some' }), false);
  });

  it('accepts token -1 (none picked yet), as the webview saves it, but nothing below', () => {
    assert.equal(isPanelState({ ...state, token: -1 }), true);
    assert.equal(isPanelState({ ...state, token: -2 }), false);
    assert.equal(isPanelState({ ...state, token: 0.5 }), false);
  });
});

describe('the shared checks and the protocol\'s name lists', () => {
  it('isObject, isIndex and isOneOf', () => {
    assert.ok(isObject({}) && !isObject(null) && !isObject([]) && !isObject('x'));
    assert.ok(isIndex(0) && isIndex(3) && !isIndex(-1) && !isIndex(1.5) && !isIndex('1') && !isIndex(NaN));
    assert.ok(isIndex(1, 1) && !isIndex(0, 1));
    assert.ok(isOneOf('wo', ROLES) && !isOneOf('wx', ROLES) && !isOneOf(1, ROLES));
  });
  it('every listed view, mode and role is accepted by the host and restored by the webview; others are not', () => {
    assert.deepEqual([...ROLES], ['wq', 'wk', 'wv', 'wo']);
    assert.deepEqual([...MATRIX_MODES], ['scores', 'scaled', 'weights', 'cosine', 'norms']);
    assert.deepEqual([...EXPORT_FORMATS], ['svg', 'png']);
    for (const view of VIEW_NAMES) {
      assert.ok(isPanelState({ ...state, view }), view);
      assert.equal(restoreState({ view }).view, view);
    }
    for (const matrixMode of MATRIX_MODES) {
      assert.ok(isPanelState({ ...state, matrixMode }), matrixMode);
      assert.equal(restoreState({ matrixMode }).matrixMode, matrixMode);
    }
    for (const projection of ROLES) {
      assert.ok(isPanelState({ ...state, projection }), projection);
      assert.equal(restoreState({ projection }).projection, projection);
    }
    assert.ok(!isPanelState({ ...state, view: 'graph' }));
    assert.ok(!isPanelState({ ...state, matrixMode: 'logits' }));
    assert.ok(!isPanelState({ ...state, projection: 'wx' }));
    // hiddenHeads keeps every whole number, wherever it sits in the list.
    assert.deepEqual(restoreState({ hiddenHeads: [2, 0, 1, -1, 'x', 5] }).hiddenHeads, [2, 0, 1, 5]);
  });
});

describe('openNext', () => {
  it('takes only a bare *.attn.json name beside the spec', () => {
    for (const file of ['../secret.attn.json', 'a/b.attn.json', 'C:\\x.attn.json', '/etc/passwd', 'notes.txt', '', '.attn.json', 7]) {
      assert.equal(isWebviewMessage({ type: 'openNext', documentUri: uri, file }), false, JSON.stringify(file));
    }
    assert.equal(isWebviewMessage({ type: 'openNext', file: 'a.attn.json' }), false, 'no documentUri');
  });
});

describe('openElsewhere', () => {
  it('names the document it is about', () => {
    assert.equal(isWebviewMessage({ type: 'openElsewhere' }), false);
    assert.equal(isWebviewMessage({ type: 'openElsewhere', documentUri: 7 }), false);
  });
});
