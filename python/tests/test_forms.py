"""show() on every form attention comes in (numpy): [layers, heads, n, n], [heads, n, n], [n, n], a batch
of 1, Hugging Face's tuple of [1, heads, n, n] per layer, TransformerLens' list of [heads, n, n] or
[1, heads, n, n]; each gives the same [L, H, n, n] values; bad input is a ValueError that says why."""
import unittest

import numpy as np

from helpers import attention, decoded, tokens
import attention_lens
from attention_lens import MIME


def payload(a, toks, **kw):
    return attention_lens.show(a, toks, **kw)._repr_mimebundle_()[MIME]


class Forms(unittest.TestCase):
    def test_four_axes(self):
        a = attention(2, 3, 5)
        p = payload(a, tokens(5))
        self.assertEqual(p['shape'], [2, 3, 5, 5])
        self.assertEqual(p['tokens'], tokens(5))
        np.testing.assert_array_equal(decoded(p), a)

    def test_three_axes_is_one_layer(self):
        a = attention(1, 4, 6)
        p = payload(a[0], tokens(6))
        self.assertEqual(p['shape'], [1, 4, 6, 6])
        np.testing.assert_array_equal(decoded(p), a)

    def test_two_axes_is_one_head(self):
        a = attention(1, 1, 3)
        p = payload(a[0, 0], ['a', 'b', 'c'])
        self.assertEqual(p['shape'], [1, 1, 3, 3])
        np.testing.assert_array_equal(decoded(p), a)

    def test_batch_of_one_is_taken_off(self):
        a = attention(2, 2, 4)
        self.assertEqual(payload(a[None], tokens(4))['shape'], [2, 2, 4, 4])

    def test_hugging_face_tuple(self):
        a = attention(3, 2, 4)
        p = payload(tuple(a[l][None] for l in range(3)), tokens(4))
        self.assertEqual(p['shape'], [3, 2, 4, 4])
        np.testing.assert_array_equal(decoded(p), a)

    def test_transformer_lens_list(self):
        a = attention(2, 3, 4)
        for layers in ([a[0], a[1]], [a[0][None], a[1][None]]):
            p = payload(layers, tokens(4))
            self.assertEqual(p['shape'], [2, 3, 4, 4])
            np.testing.assert_array_equal(decoded(p), a)

    def test_plain_nested_lists(self):
        p = payload([[0.25, 0.75], [1.0, 0.0]], ['a', 'b'])
        self.assertEqual(p['shape'], [1, 1, 2, 2])
        np.testing.assert_array_equal(decoded(p)[0, 0], [[0.25, 0.75], [1.0, 0.0]])

    def test_title_is_kept_and_absent_when_not_given(self):
        a = attention(1, 1, 2)
        self.assertEqual(payload(a, tokens(2), title='gpt2 <layer 0>')['title'], 'gpt2 <layer 0>')
        self.assertNotIn('title', payload(a, tokens(2)))

    def test_exact_keys(self):
        self.assertEqual(set(payload(attention(1, 1, 2), tokens(2))), {'tokens', 'shape', 'dtype', 'data'})


class Refusals(unittest.TestCase):
    def assertRefused(self, pattern, a, toks):
        with self.assertRaisesRegex(ValueError, pattern):
            attention_lens.show(a, toks)

    def test_tokens_count(self):
        self.assertRefused(r'4 tokens for 5 × 5 attention', attention(1, 1, 5), tokens(4))

    def test_tokens_as_one_string(self):
        self.assertRefused(r'not one string', attention(1, 1, 3), 'abc')

    def test_tokens_missing(self):
        self.assertRefused(r'tokens are needed', attention(1, 1, 3), None)

    def test_not_square(self):
        self.assertRefused(r'expected \[heads, n, n\], got \[2, 3, 4\]', np.ones((2, 3, 4)), tokens(4))

    def test_too_many_axes(self):
        self.assertRefused(r'a batch of 2 sequences', np.ones((2, 1, 1, 3, 3)), tokens(3))
        self.assertRefused(r'expected \[layers, heads, n, n\]', np.ones((3,)), tokens(3))

    def test_layers_disagree(self):
        self.assertRefused(r'layer 1 is \[3, 4, 4\] but layer 0 is \[2, 4, 4\]', [np.ones((2, 4, 4)), np.ones((3, 4, 4))], tokens(4))

    def test_not_finite_names_the_place(self):
        for bad in (np.nan, np.inf, -np.inf):
            a = attention(2, 2, 3)
            a[1, 0, 2, 1] = bad
            self.assertRefused(r'query 2 on key 1 in layer 1 head 0 is .*must be finite', a, tokens(3))

    def test_float64_past_float32_is_not_finite(self):
        a = attention(1, 1, 2, dtype=np.float64)
        a[0, 0, 0, 0] = 1e300
        self.assertRefused(r'must be finite', a, tokens(2))

    def test_empty(self):
        self.assertRefused(r'empty list', [], [])
        self.assertRefused(r'empty', np.ones((1, 0, 3, 3)), tokens(3))
        # Before: no layers at all (an array [0, heads, n, n]) raised IndexError from inside the package.
        self.assertRefused(r'the attention is empty: 0 layers', np.ones((0, 2, 3, 3)), tokens(3))

    def test_title_the_renderer_would_refuse(self):
        # Before: a 5,000-character title went into the payload, which the extension's check refuses
        # (at most 1,000 UTF-16 code units): a problem in place of the views, after show() had said nothing.
        with self.assertRaisesRegex(ValueError, r'the title is 5000 characters; at most 1000'):
            attention_lens.show(attention(1, 1, 2), tokens(2), title='x' * 5000)
        # Counted as JavaScript counts: an emoji is two.
        with self.assertRaisesRegex(ValueError, r'the title is 1200 characters; at most 1000'):
            attention_lens.show(attention(1, 1, 2), tokens(2), title='\U0001F600' * 600)
        self.assertEqual(len(attention_lens.show(attention(1, 1, 2), tokens(2), title='y' * 1000).payload['title']), 1000)

    def test_not_numbers(self):
        self.assertRefused(r'expected numbers', np.array([['a', 'b'], ['c', 'd']]), ['x', 'y'])

    def test_too_many_tokens(self):
        self.assertRefused(r'4097 tokens, more than the 4096', np.zeros((1, 1, 4097, 4097), dtype=np.float16), tokens(4097))


if __name__ == '__main__':
    unittest.main()
