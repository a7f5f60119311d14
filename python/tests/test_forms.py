"""show() on every form attention comes in (numpy): [layers, heads, n, n], [heads, n, n], [n, n], a batch
of 1, Hugging Face's tuple of [1, heads, n, n] per layer, TransformerLens' list of [heads, n, n] or
[1, heads, n, n]; each gives the same [L, H, n, n] values; bad input is a ValueError that says why."""
import numpy as np
import pytest

import attention_lens
from attention_lens import MIME


def payload(a, toks, **kw):
    return attention_lens.show(a, toks, **kw)._repr_mimebundle_()[MIME]


def test_four_axes(attention, tokens, decoded):
    a = attention(2, 3, 5)
    p = payload(a, tokens(5))
    assert p['shape'] == [2, 3, 5, 5]
    assert p['tokens'] == tokens(5)
    np.testing.assert_array_equal(decoded(p), a)


def test_three_axes_is_one_layer(attention, tokens, decoded):
    a = attention(1, 4, 6)
    p = payload(a[0], tokens(6))
    assert p['shape'] == [1, 4, 6, 6]
    np.testing.assert_array_equal(decoded(p), a)


def test_two_axes_is_one_head(attention, decoded):
    a = attention(1, 1, 3)
    p = payload(a[0, 0], ['a', 'b', 'c'])
    assert p['shape'] == [1, 1, 3, 3]
    np.testing.assert_array_equal(decoded(p), a)


def test_batch_of_one_is_taken_off(attention, tokens):
    assert payload(attention(2, 2, 4)[None], tokens(4))['shape'] == [2, 2, 4, 4]


def test_hugging_face_tuple(attention, tokens, decoded):
    a = attention(3, 2, 4)
    p = payload(tuple(a[l][None] for l in range(3)), tokens(4))
    assert p['shape'] == [3, 2, 4, 4]
    np.testing.assert_array_equal(decoded(p), a)


@pytest.mark.parametrize('batched', [False, True])
def test_transformer_lens_list(attention, tokens, decoded, batched):
    a = attention(2, 3, 4)
    p = payload([a[0][None], a[1][None]] if batched else [a[0], a[1]], tokens(4))
    assert p['shape'] == [2, 3, 4, 4]
    np.testing.assert_array_equal(decoded(p), a)


def test_plain_nested_lists(decoded):
    p = payload([[0.25, 0.75], [1.0, 0.0]], ['a', 'b'])
    assert p['shape'] == [1, 1, 2, 2]
    np.testing.assert_array_equal(decoded(p)[0, 0], [[0.25, 0.75], [1.0, 0.0]])


def test_title_is_kept_and_absent_when_not_given(attention, tokens):
    a = attention(1, 1, 2)
    assert payload(a, tokens(2), title='gpt2 <layer 0>')['title'] == 'gpt2 <layer 0>'
    assert 'title' not in payload(a, tokens(2))


def test_exact_keys(attention, tokens):
    assert set(payload(attention(1, 1, 2), tokens(2))) == {'tokens', 'shape', 'dtype', 'data'}


def refused(pattern, a, toks, **kw):
    with pytest.raises(ValueError, match=pattern):
        attention_lens.show(a, toks, **kw)


def test_tokens_count(attention, tokens):
    refused(r'4 tokens for 5 × 5 attention', attention(1, 1, 5), tokens(4))


def test_tokens_as_one_string(attention):
    refused(r'not one string', attention(1, 1, 3), 'abc')


def test_tokens_missing(attention):
    refused(r'tokens are needed', attention(1, 1, 3), None)


def test_not_square(tokens):
    refused(r'expected \[heads, n, n\], got \[2, 3, 4\]', np.ones((2, 3, 4)), tokens(4))


def test_too_many_axes(tokens):
    refused(r'a batch of 2 sequences', np.ones((2, 1, 1, 3, 3)), tokens(3))
    refused(r'expected \[layers, heads, n, n\]', np.ones((3,)), tokens(3))


def test_layers_disagree(tokens):
    refused(r'layer 1 is \[3, 4, 4\] but layer 0 is \[2, 4, 4\]', [np.ones((2, 4, 4)), np.ones((3, 4, 4))], tokens(4))


@pytest.mark.parametrize('bad', [np.nan, np.inf, -np.inf])
def test_not_finite_names_the_place(attention, tokens, bad):
    a = attention(2, 2, 3)
    a[1, 0, 2, 1] = bad
    refused(r'query 2 on key 1 in layer 1 head 0 is .*must be finite', a, tokens(3))


def test_float64_past_float32_is_not_finite(attention, tokens):
    a = attention(1, 1, 2, dtype=np.float64)
    a[0, 0, 0, 0] = 1e300
    refused(r"is 1e\+300, past float32's range: attention must be finite", a, tokens(2))


def test_empty(tokens):
    refused(r'empty list', [], [])
    refused(r'empty', np.ones((1, 0, 3, 3)), tokens(3))
    # No layers at all (an array [0, heads, n, n]) once raised IndexError from inside the package.
    refused(r'the attention is empty: 0 layers', np.ones((0, 2, 3, 3)), tokens(3))


def test_not_numbers():
    refused(r'expected numbers', np.array([['a', 'b'], ['c', 'd']]), ['x', 'y'])


def test_too_many_tokens(tokens):
    refused(r'4097 tokens, more than the 4096', np.zeros((1, 1, 4097, 4097), dtype=np.float16), tokens(4097))


def test_too_many_heads_from_the_shape_alone(tokens):
    # A lazy view of 16,385 heads: refused from its shape, before any value is read.
    refused(r'16385 layers × 1 heads, more than the 16384', np.broadcast_to(np.float32(0.5), (16385, 1, 2, 2)), tokens(2))
