"""save() with heads given one at a time (a callable or an iterator, shape=): the file is the one the
array form writes, only one head is alive at a time, and a head that fails its check, a count that
does not match shape=, or a shape the editor would refuse leaves no file."""
import gc
import weakref

import numpy as np
import pytest

import attention_lens
from test_safetensors import read


def test_callable_and_iterator_write_the_array_forms_file(tmp_path, attention, tokens):
    a = attention(2, 3, 6)
    whole, by_call, by_iter = (tmp_path / f'{k}.safetensors' for k in ('whole', 'call', 'iter'))
    attention_lens.save(str(whole), a, tokens(6))
    attention_lens.save(str(by_call), lambda l, h: a[l, h], tokens(6), shape=(2, 3, 6))
    attention_lens.save(str(by_iter), (a[l, h] for l in range(2) for h in range(3)), tokens(6), shape=(2, 3, 6))
    assert by_call.read_bytes() == whole.read_bytes()
    assert by_iter.read_bytes() == whole.read_bytes()


def test_float16_heads_stay_float16_and_a_batch_of_one_is_taken(tmp_path, attention):
    a = attention(1, 2, 5).astype(np.float16)
    path = tmp_path / 'h.safetensors'
    attention_lens.save(str(path), iter([a[0, 0][None], a[0, 1][None]]), shape=(1, 2, 5))
    _, header, arrays = read(path)
    assert header['layers.0.attention']['dtype'] == 'F16'
    np.testing.assert_array_equal(arrays['layers.0.attention'], a[0])


def test_one_head_alive_at_a_time(tmp_path):
    n = 64
    alive = []

    def heads():
        for k in range(6):
            gc.collect()
            assert sum(r() is not None for r in alive) == 0, f'head {k} asked for while an earlier one is held'
            head = np.full((n, n), 1 / n, dtype=np.float32)
            alive.append(weakref.ref(head))
            yield head
            del head  # this generator's own reference: only the writer's may remain

    attention_lens.save(str(tmp_path / 'one.safetensors'), heads(), shape=(2, 3, n))
    assert len(alive) == 6


def test_rows_are_written_in_blocks_so_a_head_is_never_copied_whole(tmp_path, monkeypatch):
    from attention_lens import stream
    monkeypatch.setattr(stream, 'ROW_BLOCK_BYTES', 3 * 40 * 4)
    a = np.random.default_rng(1).random((1, 1, 40, 40)).astype(np.float32)
    path = tmp_path / 'rows.safetensors'
    attention_lens.save(str(path), lambda l, h: a[l, h], shape=(1, 1, 40))
    np.testing.assert_array_equal(read(path)[2]['layers.0.attention'], a[0])


@pytest.mark.parametrize('heads, shape, message', [
    (lambda: iter([np.eye(4)] * 3), (1, 4, 4), 'the heads ended after 3 of 1 × 4'),
    (lambda: iter([np.eye(4)] * 5), (1, 4, 4), 'more heads than the 1 × 4'),
    (lambda: (lambda l, h: np.eye(5)), (1, 2, 4), r'layer 0 head 0: expected \[4, 4\]'),
    (lambda: (lambda l, h: np.full((4, 4), np.nan) if h == 1 else np.eye(4)), (1, 2, 4), 'query 0 on key 0 in layer 0 head 1 is nan'),
    (lambda: (lambda l, h: np.eye(4)), (1, 2), r'shape=\(layers, heads, n\)'),
    (lambda: (lambda l, h: np.eye(4)), None, r'shape=\(layers, heads, n\)'),
    (lambda: (lambda l, h: np.eye(4)), (1, 1, 40000), '40000 tokens, more than the 32768'),
    (lambda: (lambda l, h: np.eye(4)), (2, 1, 32768), 'more than the 1,073,741,824 the model editor reads'),
])
def test_refused_heads_leave_no_file(tmp_path, heads, shape, message):
    path = tmp_path / 'bad.safetensors'
    with pytest.raises(ValueError, match=message):
        attention_lens.save(str(path), heads(), shape=shape)
    assert not path.exists()


def test_float16_range_is_checked_per_head(tmp_path):
    path = tmp_path / 'big.safetensors'
    with pytest.raises(ValueError, match="layer 0 head 1 is 70000, past float16's largest"):
        attention_lens.save(str(path), lambda l, h: np.full((4, 4), 70000.0 if h else 0.25, dtype=np.float32), shape=(1, 2, 4), dtype='float16')
    assert not path.exists()


def test_shape_is_for_streamed_heads_only(tmp_path, attention):
    with pytest.raises(ValueError, match='shape= is for heads given one at a time'):
        attention_lens.save(str(tmp_path / 'a.safetensors'), attention(1, 1, 4), shape=(1, 1, 4))
