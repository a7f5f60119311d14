"""The payload's dtype and size rule: float32 and float64 input → float32; float16 input stays float16;
past MAX_PAYLOAD_BYTES (32 MiB) of float32 every head in float16; past it in float16 too (or out of
float16's range) the chosen head alone at full precision (layer=/head=, else the most focused head);
base64 of the little-endian bytes round-trips exactly."""
import base64

import numpy as np
import pytest

import attention_lens
from attention_lens import MIME


def bundle(a, toks, **kw):
    return attention_lens.show(a, toks, **kw)._repr_mimebundle_()


def test_the_stated_limit():
    assert attention_lens.MAX_PAYLOAD_BYTES == 32 * 1024 * 1024


def test_float32_stays_float32(attention, tokens, decoded):
    a = attention(1, 2, 4)
    p = bundle(a, tokens(4))[MIME]
    assert p['dtype'] == 'float32'
    assert len(base64.b64decode(p['data'])) == 2 * 4 * 4 * 4
    np.testing.assert_array_equal(decoded(p), a)


def test_float64_becomes_float32(attention, tokens, decoded):
    a = attention(1, 2, 4, dtype=np.float64)
    p = bundle(a, tokens(4))[MIME]
    assert p['dtype'] == 'float32'
    np.testing.assert_array_equal(decoded(p), a.astype(np.float32))


def test_integers_become_float32(tokens, decoded):
    p = bundle(np.eye(3, dtype=np.int64), tokens(3))[MIME]
    assert p['dtype'] == 'float32'
    np.testing.assert_array_equal(decoded(p)[0, 0], np.eye(3))


def test_float16_stays_float16(attention, tokens, decoded):
    a = attention(2, 1, 4, dtype=np.float16)
    p = bundle(a, tokens(4))[MIME]
    assert p['dtype'] == 'float16'
    assert len(base64.b64decode(p['data'])) == 2 * 4 * 4 * 2
    np.testing.assert_array_equal(decoded(p), a)


def test_little_endian_bytes():
    a = np.array([[0.5, 0.25], [1.0, 0.0]], dtype='>f4')  # big-endian input
    p = bundle(a, ['a', 'b'])[MIME]
    assert base64.b64decode(p['data'])[:4] == bytes([0, 0, 0, 0x3f])


def test_float16_past_the_limit(attention, tokens, decoded, small_payload):
    a = attention(2, 2, 8)  # 2 × 2 × 64 × 4 = 1,024 bytes in float32, 512 in float16
    small_payload(1000)
    p = bundle(a, tokens(8))[MIME]
    assert (p['dtype'], p['shape']) == ('float16', [2, 2, 8, 8])
    np.testing.assert_array_equal(decoded(p), a.astype(np.float16))
    small_payload(1024)
    assert bundle(a, tokens(8))[MIME]['dtype'] == 'float32', 'at the limit itself float32 still fits'


def test_one_head_past_the_limit_in_float16(attention, tokens, decoded, small_payload):
    a = attention(2, 3, 8, seed=1)
    a[1, 2] = np.eye(8)  # the most focused head: every query gives all its weight to one key
    small_payload(100)
    v = attention_lens.show(a, tokens(8), title='run')
    assert (v.payload['shape'], v.payload['dtype']) == ([1, 1, 8, 8], 'float32')
    np.testing.assert_array_equal(decoded(v.payload)[0, 0], a[1, 2])
    assert v.payload['title'] == 'run · layer=1, head=2 of 2 layers × 3 heads (the whole is over 0 MiB)'
    assert 'layer=1, head=2 of 2 layers × 3 heads × 8 tokens (float32; that head alone' in v.text()


def test_one_head_named_by_layer_and_head(attention, tokens, decoded, small_payload):
    a = attention(2, 3, 8)
    small_payload(100)
    p = bundle(a, tokens(8), layer=0, head=1)[MIME]
    np.testing.assert_array_equal(decoded(p)[0, 0], a[0, 1])
    assert p['title'] == 'layer=0, head=1 of 2 layers × 3 heads (the whole is over 0 MiB)'
    with pytest.raises(ValueError, match=r'head=3, but the attention has 3 heads'):
        attention_lens.show(a, tokens(8), layer=0, head=3)
    with pytest.raises(ValueError, match=r'layer=True, but the attention has 2 layers'):
        attention_lens.show(a, tokens(8), layer=True, head=0)


def test_float16_input_one_head_stays_float16(attention, tokens, decoded, small_payload):
    a = attention(2, 2, 8, dtype=np.float16)
    small_payload(100)
    p = bundle(a, tokens(8), layer=1, head=1)[MIME]
    assert (p['dtype'], p['shape']) == ('float16', [1, 1, 8, 8])
    np.testing.assert_array_equal(decoded(p)[0, 0], a[1, 1])


def test_past_float16_range_goes_to_one_head(attention, tokens, decoded, small_payload):
    a = attention(1, 2, 8)
    a[0, 0, 0, 0] = 70000.0  # scores, not weights: float16 would make it infinite
    small_payload(300)
    p = bundle(a, tokens(8), layer=0, head=0)[MIME]
    assert (p['dtype'], p['shape']) == ('float32', [1, 1, 8, 8])
    assert decoded(p)[0, 0, 0, 0] == 70000.0


def test_the_real_limit_switches_to_float16(tokens):
    a = np.full((1, 3, 2048, 2048), 1 / 2048, dtype=np.float32)  # 48 MiB in float32, 24 MiB in float16
    p = bundle(a, tokens(2048))[MIME]
    assert (p['dtype'], p['shape']) == ('float16', [1, 3, 2048, 2048])
    assert len(base64.b64decode(p['data'])) == 3 * 2048 * 2048 * 2


def test_three_mime_types(attention, tokens):
    b = bundle(attention(12, 12, 16), tokens(16))
    assert set(b) == {MIME, 'text/html', 'text/plain'}
    assert b['text/plain'] == 'Attention Lens: 12 layers × 12 heads × 16 tokens (float32)'
    assert bundle(attention(1, 1, 1), ['x'])['text/plain'] == 'Attention Lens: 1 layer × 1 head × 1 token (float32)'


def test_include_and_exclude(attention, tokens):
    v = attention_lens.show(attention(1, 1, 2), tokens(2))
    assert set(v._repr_mimebundle_(include=['text/plain'])) == {'text/plain'}
    assert set(v._repr_mimebundle_(exclude=['text/html'])) == {MIME, 'text/plain'}
    assert repr(v) == 'Attention Lens: 1 layer × 1 head × 2 tokens (float32)'


def test_title_the_renderer_would_refuse(attention, tokens):
    # A 5,000-character title once went into the payload, which the extension's check refuses
    # (at most 1,000 UTF-16 code units): a problem in place of the views, after show() had said nothing.
    with pytest.raises(ValueError, match=r'the title is 5000 characters; at most 1000'):
        attention_lens.show(attention(1, 1, 2), tokens(2), title='x' * 5000)
    # Counted as JavaScript counts: an emoji is two.
    with pytest.raises(ValueError, match=r'the title is 1200 characters; at most 1000'):
        attention_lens.show(attention(1, 1, 2), tokens(2), title='\U0001F600' * 600)
    assert len(attention_lens.show(attention(1, 1, 2), tokens(2), title='y' * 1000).payload['title']) == 1000
