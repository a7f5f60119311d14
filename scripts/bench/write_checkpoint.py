"""bench:model's random weights: one model.safetensors written by hand (8-byte header size, JSON
header, data), every tensor drawn from N(0, scale²) (a norm's weight 1 + that), F32 or BF16 (the
float32 rounded to nearest even, its upper 16 bits), in chunks so a 1.2-billion-weight file never
holds more than one chunk in memory.

  python3 write_checkpoint.py OUT.safetensors SPEC.json
  SPEC = { "dtype": "F32" | "BF16", "scale": 0.02, "seed": 1, "tensors": [[name, shape, "normal" | "norm"]] }"""
import json
import struct
import sys

import numpy as np

CHUNK = 1 << 24


def bf16(x):
    u = x.view(np.uint32)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def main():
    out, spec_file = sys.argv[1], sys.argv[2]
    with open(spec_file) as f:
        spec = json.load(f)
    width = 4 if spec['dtype'] == 'F32' else 2
    header, at = {}, 0
    for name, shape, _ in spec['tensors']:
        size = int(np.prod(shape)) * width
        header[name] = {'dtype': spec['dtype'], 'shape': shape, 'data_offsets': [at, at + size]}
        at += size
    text = json.dumps(header, separators=(',', ':'))
    text += ' ' * ((8 - len(text) % 8) % 8)
    rng = np.random.default_rng(spec['seed'])
    with open(out, 'wb') as f:
        f.write(struct.pack('<Q', len(text)))
        f.write(text.encode())
        for name, shape, kind in spec['tensors']:
            left = int(np.prod(shape))
            while left > 0:
                count = min(left, CHUNK)
                x = rng.standard_normal(count, dtype=np.float32) * np.float32(spec['scale'])
                if kind == 'norm':
                    x += np.float32(1)
                f.write((x if width == 4 else bf16(x)).tobytes())
                left -= count


if __name__ == '__main__':
    main()
