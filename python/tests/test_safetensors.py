"""save() writes the .safetensors the model editor reads, for every form show() takes: the header
parsed here by hand (8-byte size, JSON, 8-byte aligned data), one F32, F16 or F64 tensor per layer, the
tokens in __metadata__, the values as given; and refuses, writing nothing, what the editor would refuse.
(test/unit/python reads the files with our TS reader.)"""
import json
import struct

import numpy as np
import pytest

import attention_lens


def read(path):
    raw = path.read_bytes()
    size = struct.unpack('<Q', raw[:8])[0]
    header = json.loads(raw[8:8 + size].decode('utf-8'))
    data = raw[8 + size:]
    arrays = {}
    for name, t in header.items():
        if name == '__metadata__':
            continue
        kind = {'F32': '<f4', 'F16': '<f2', 'F64': '<f8'}[t['dtype']]
        b, e = t['data_offsets']
        arrays[name] = np.frombuffer(data[b:e], dtype=kind).reshape(t['shape'])
    assert len(data) == max(t['data_offsets'][1] for n, t in header.items() if n != '__metadata__')
    return size, header, arrays


def test_layers_and_tokens(tmp_path, attention, tokens):
    a = attention(3, 2, 5)
    path = tmp_path / 'a.safetensors'
    attention_lens.save(str(path), a, tokens(5))
    size, header, arrays = read(path)
    assert size % 8 == 0
    assert json.loads(header['__metadata__']['tokens']) == tokens(5)
    for l in range(3):
        assert header[f'layers.{l}.attention']['dtype'] == 'F32'
        np.testing.assert_array_equal(arrays[f'layers.{l}.attention'], a[l])


def test_every_form(tmp_path, attention, tokens):
    a = attention(2, 2, 4)
    for form in (a, a[None], tuple(a[l][None] for l in range(2)), [a[0], a[1]]):
        path = tmp_path / 'f.safetensors'
        attention_lens.save(str(path), form, tokens(4))
        _, _, arrays = read(path)
        np.testing.assert_array_equal(np.stack([arrays['layers.0.attention'], arrays['layers.1.attention']]), a)


def test_float16_kept_float64_narrowed(tmp_path, attention, tokens):
    path = tmp_path / 'h.safetensors'
    attention_lens.save(str(path), attention(1, 1, 3, dtype=np.float16), tokens(3))
    assert read(path)[1]['layers.0.attention']['dtype'] == 'F16'
    attention_lens.save(str(path), attention(1, 1, 3, dtype=np.float64), tokens(3))
    assert read(path)[1]['layers.0.attention']['dtype'] == 'F32'


def test_float64_kept_when_asked(tmp_path, attention, tokens):
    path = tmp_path / 'd.safetensors'
    a = attention(1, 2, 3, dtype=np.float64)
    attention_lens.save(str(path), a, tokens(3), dtype='float64')
    _, header, arrays = read(path)
    assert header['layers.0.attention']['dtype'] == 'F64'
    np.testing.assert_array_equal(arrays['layers.0.attention'], a[0])


def nan_at(attention):
    a = attention(1, 1, 3)
    a[0, 0, 2, 1] = np.nan
    return a


@pytest.mark.parametrize('pattern, make, toks, dtype', [
    (r'3 tokens for 4 × 4', lambda at: at(1, 1, 4), ['a', 'b', 'c'], None),
    (r'a batch of 2', lambda at: np.ones((2, 1, 1, 3, 3)), ['a', 'b', 'c'], None),
    (r'query 2 on key 1 in layer 0 head 0 is nan: attention must be finite', nan_at, ['a', 'b', 'c'], None),
    (r'layer 1 is \[1, 3, 3\] but layer 0 is \[2, 3, 3\]', lambda at: [np.ones((2, 3, 3)), np.ones((1, 3, 3))], ['a', 'b', 'c'], None),
    (r'the attention is empty', lambda at: np.zeros((1, 2, 0, 0)), [], None),
    (r'the attention is empty', lambda at: np.zeros((0, 2, 3, 3)), ['a', 'b', 'c'], None),
    (r"dtype='int8': save writes float16, float32 or float64", lambda at: at(1, 1, 3), ['a', 'b', 'c'], 'int8'),
    (r"dtype='nope': save writes float16, float32 or float64", lambda at: at(1, 1, 3), ['a', 'b', 'c'], 'nope'),
    # float16 cannot hold 70000: it was written as +inf, after the docstring promised a ValueError.
    (r"dtype='float16': the weight of query 1 on key 2 in layer 0 head 0 is 70000, past float16's largest \(65504\)",
     lambda at: np.array([[0, 0, 0], [0, 0, 70000.0], [0, 0, 0]]), ['a', 'b', 'c'], 'float16'),
    (r"tokens\[0\] is list \['The'\], not a string", lambda at: at(1, 1, 2), [['The'], ['cat']], None),
    (r'tokens\[0\]: a lone surrogate U\+DC80', lambda at: at(1, 1, 1), ['\udc80'], None),
])
def test_refused_and_nothing_written(tmp_path, attention, pattern, make, toks, dtype):
    path = tmp_path / 'bad.safetensors'
    with pytest.raises(ValueError, match=pattern):
        attention_lens.save(str(path), make(attention), toks, dtype=dtype)
    assert not path.exists()


def test_a_file_already_there_is_left_when_refused(tmp_path, attention, tokens):
    path = tmp_path / 'kept.safetensors'
    attention_lens.save(str(path), attention(1, 1, 2), tokens(2))
    before = path.read_bytes()
    with pytest.raises(ValueError):
        attention_lens.save(str(path), np.full((1, 1, 2, 2), 1e6), tokens(2), dtype='float16')
    assert path.read_bytes() == before


def test_written_a_block_at_a_time(tmp_path, tokens, monkeypatch):
    # Blocks of one head: the file is the same as when written whole.
    from attention_lens import values
    a = np.random.default_rng(5).random((2, 5, 6, 6))
    whole = tmp_path / 'whole.safetensors'
    attention_lens.save(str(whole), a, tokens(6))
    monkeypatch.setattr(values, 'BLOCK_BYTES', 1)
    parts = tmp_path / 'parts.safetensors'
    attention_lens.save(str(parts), a, tokens(6))
    assert parts.read_bytes() == whole.read_bytes()


def test_a_file_past_the_disk_is_refused_from_its_shape(tmp_path, tokens, monkeypatch):
    # A lazy (16384, 1, 4096, 4096) is 1 TiB as float32: refused at once, before any value is read.
    import shutil
    from collections import namedtuple
    monkeypatch.setattr(shutil, 'disk_usage', lambda _: namedtuple('usage', 'total used free')(2**40, 0, 100 * 2**30))
    path = tmp_path / 'huge.safetensors'
    huge = np.broadcast_to(np.float32(1 / 4096), (16384, 1, 4096, 4096))
    with pytest.raises(ValueError, match=r'huge\.safetensors: the file would take 1,099,5\d\d,\d\d\d,\d\d\d bytes, and its disk has 107,374,182,400 free'):
        attention_lens.save(str(path), huge, tokens(4096))
    assert not path.exists()


def test_the_disk_check_counts_the_chosen_dtype(tmp_path, tokens, monkeypatch):
    import shutil
    from collections import namedtuple
    a = np.full((1, 2, 4, 4), 0.25)
    usage = namedtuple('usage', 'total used free')
    monkeypatch.setattr(shutil, 'disk_usage', lambda _: usage(10**6, 0, 2 * 16 * 2 + 200))
    attention_lens.save(str(tmp_path / 'half.safetensors'), a, tokens(4), dtype='float16')
    with pytest.raises(ValueError, match=r'the file would take \d+ bytes, and its disk has 264 free'):
        attention_lens.save(str(tmp_path / 'double.safetensors'), a, tokens(4), dtype='float64')
    assert not (tmp_path / 'double.safetensors').exists()
